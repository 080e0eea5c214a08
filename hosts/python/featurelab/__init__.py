"""featurelab from Python: pipelines validated and run in this process, results as pandas DataFrames.

    import featurelab
    featurelab.validate("P.toml", set={"model.width": 100})   # a summary; ConfigError with every located problem
    run = featurelab.run("P.toml", set={"model.width": 100}, out="runs/p", jobs=2)   # per-job lines as it goes
    run = featurelab.load("runs/fig1")                 # or a list of run directories
    featurelab.list("model")                           # the components found (a DataFrame)
    featurelab.describe("two-layer")                   # a component's parameters (a DataFrame; its doc in .attrs)
    run.jobs         # one row per job: run, job, job_id, seed, point, status, <sweep keys>, dir
    run.metrics      # one row per recorded value: run, job, job_id, seed, point, status, <sweep keys>, step, metric, value,
                     # source ("run": measured in training; "eval/NAME": by featurelab eval --name NAME on saved weights)
    run.final        # one row per finished job (or evaluation) and metric (its last value)
    run.summary      # summary.csv of each run: mean, std, min, max over seeds per sweep point and metric
    run.asserts      # one row per assertion and check: expect, over, holds, point, seed, lhs, rhs
    run.table("neuron-feature-cosine.cosine", job=0)   # a probe's table at its last step, as a DataFrame

    # mean ± std over seeds of a curve, per sweep point:
    run.metrics.query("metric == 'accuracy.test'").groupby(["model.width", "step"]).value.agg(["mean", "std"])

The tables are those of `featurelab export` (the same C++ reader), so a DataFrame and an exported CSV agree.
"""

from __future__ import annotations

import builtins
import difflib
import json
import math
import os
import re
import sys
from dataclasses import dataclass, field
from typing import Any, Callable, Iterable, List, Mapping, Optional, Sequence, Union

import pandas as pd

# Brief OpenMP waits, as the featurelab command sets them (hosts/cli/openmp_waiting.cpp): libgomp reads this once,
# when it is loaded with the extension below, unless the process loaded it before.
if "GOMP_SPINCOUNT" not in os.environ and "OMP_WAIT_POLICY" not in os.environ:
    os.environ["GOMP_SPINCOUNT"] = "10000"

from . import _featurelab, _progress
from ._featurelab import BusyError, ConfigError, FeaturelabError, PluginError

__all__ = ["BusyError", "ConfigError", "FeaturelabError", "PluginError", "Run", "describe", "list", "load", "run",
           "search", "validate"]

PathLike = Union[str, os.PathLike]
Overrides = Union[Mapping[str, Any], Sequence[str], None]


def _toml(value: Any) -> str:
    """A Python value as the TOML text --set takes."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        if math.isnan(value):
            return "nan"
        if math.isinf(value):
            return "inf" if value > 0 else "-inf"
        return repr(value)
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)  # a TOML basic string: the same escapes
    if isinstance(value, Mapping):
        return "{" + ", ".join(f"{json.dumps(str(k))} = {_toml(v)}" for k, v in value.items()) + "}"
    if isinstance(value, (builtins.list, tuple)):
        return "[" + ", ".join(_toml(v) for v in value) + "]"
    raise TypeError(f"cannot write {type(value).__name__} {value!r} as a TOML value")


def _overrides(set: Overrides) -> builtins.list:
    """{"model.width": 100} or ["model.width=100"] as --set's KEY=VALUE texts."""
    if set is None:
        return []
    if isinstance(set, Mapping):
        return [f"{key}={_toml(value)}" for key, value in set.items()]
    return [str(s) for s in set]


def _print_log(level: str, message: str) -> None:
    print(message if level == "info" else f"{level}: {message}", file=sys.stderr, flush=True)


def validate(pipeline: PathLike, set: Overrides = None, plugin_path: Sequence[PathLike] = ()) -> dict:
    """Checks a pipeline against the component schemas and runs nothing, as `featurelab validate`: returns its
    name, the numbers of jobs, sweep points, seeds, probes and assertions, its warnings, and the operative
    configuration of every sweep point (TOML). Raises ConfigError (.diagnostics: every (where, message)) or
    PluginError."""
    return _featurelab.validate(os.fspath(pipeline), _overrides(set), [os.fspath(p) for p in plugin_path])


def run(pipeline: PathLike, set: Overrides = None, out: Optional[PathLike] = None, jobs: int = 0, resume: bool = False,
        prepare: bool = False, job_timeout: float = 0, job_memory: int = 0, plugin_path: Sequence[PathLike] = (),
        log: Optional[Callable[[str, str], None]] = None, quiet: bool = False, save_params: str = "",
        progress: Optional[bool] = None) -> "Run":
    """Runs a pipeline in this process as `featurelab run` does (each job in a worker process of its own; an
    existing directory resumes) and returns its results (`load`). `jobs` = 0: the CPUs this process may use.
    Progress, a line per finished job and the assertions' results, goes to `log(level, message)` (default: printed
    to stderr, which a notebook shows); `quiet` logs nothing at all, failures included: they are in the returned
    Run (`exit_code`, `jobs.status`, `asserts`). `progress` draws a bar over the jobs with tqdm (default: in a
    notebook, when tqdm is there), which then takes the job lines' place. The run's exit code is `Run.exit_code`
    (1: a job failed or an assertion did not hold). Bad input raises ConfigError or PluginError; Ctrl-C stops the
    jobs after their step, writes what they did and raises KeyboardInterrupt. `save_params` = "final" or "every:N" saves each job's parameter blocks as
    .npy files in jobs/X/params/ (np.load reads them)."""
    bar = None
    if progress or (progress is None and _progress.in_notebook()):
        try:
            from tqdm.auto import tqdm
        except ImportError:
            if progress:
                raise FeaturelabError("progress=True draws with tqdm, which this Python lacks (Debian: python3-tqdm; pip: "
                                      "pip install tqdm)") from None
        else:
            bar = _progress.JobBar(tqdm, os.path.basename(os.fspath(pipeline)))
    sink = log or _print_log

    def on_log(level: str, message: str) -> None:
        # With a bar, the job lines and the plan are the bar's; warnings and errors are still printed (unless quiet).
        if bar is not None and bar.feed(message) and level == "info":
            return
        if not quiet:
            sink(level, message)

    try:
        code, out_dir = _featurelab.run(os.fspath(pipeline), _overrides(set), os.fspath(out) if out is not None else "",
                                        int(jobs), bool(resume), bool(prepare), float(job_timeout), int(job_memory),
                                        [os.fspath(p) for p in plugin_path], on_log,
                                        "off" if quiet and bar is None else "info", str(save_params))
    finally:
        if bar is not None:
            bar.close()
    if code == 130:
        raise KeyboardInterrupt(f"stopped; the finished jobs are kept in {out_dir} (run again to resume)")
    if code >= 128:
        raise FeaturelabError(f"stopped by signal {code - 128}; the finished jobs are kept in {out_dir}")
    result = load(str(out_dir)) if not prepare else None
    if result is not None:
        result.exit_code = code
    return result


def search(pipeline: PathLike, space: Mapping[str, Mapping[str, Any]], metric: str, n_trials: int, out: PathLike,
           direction: str = "maximize", sampler: Any = None, study: Any = None, set: Overrides = None,
           **run_options: Any) -> tuple:
    """Searches `space` with an Optuna sampler (default: Optuna's TPE; `sampler=optuna.samplers.RandomSampler(seed=0)`,
    …), each trial a `run` of the pipeline with the sampled values as overrides, into OUT/trial-<hash of the values>:
    a trial whose values ran before resumes that run (its finished jobs are not run again). `space` as [search] writes
    it: {"optimizer.lr": {"log-uniform": [1e-4, 1e-1]}, "model.width": {"int": [10, 1000]}, "model.activation":
    {"choice": ["relu", "tanh"]}}. The objective is the mean over seeds of the final `metric` ("clean.test");
    `direction` "maximize" or "minimize"; `study` continues an existing study. Other arguments go to `run` (jobs,
    quiet, progress, …). Returns (study, {trial number: Run}). Needs optuna (Debian: python3-optuna)."""
    from . import _search
    return _search.search(run, _overrides, pipeline, space, metric, n_trials, os.fspath(out), direction=direction,
                          sampler=sampler, study=study, overrides=_overrides(set), **run_options)


def list(kind: Optional[str] = None, plugin_path: Sequence[PathLike] = ()) -> pd.DataFrame:
    """The components on the plugin search path: kind, name, pack, summary (the doc's first sentence)."""
    rows = _featurelab.components([os.fspath(p) for p in plugin_path])
    frame = pd.DataFrame([{"kind": r["kind"], "name": r["name"], "pack": r["pack"],
                           "summary": r["doc"].split("\n")[0]} for r in rows], columns=["kind", "name", "pack", "summary"])
    if kind is not None:
        kinds = sorted(set_ for set_ in frame.kind.unique())
        if kind not in kinds:
            raise FeaturelabError(f"unknown kind '{kind}'; kinds: {', '.join(kinds)}")
        frame = frame[frame.kind == kind]
    return frame.sort_values(["kind", "name"]).reset_index(drop=True)


def describe(name: str, plugin_path: Sequence[PathLike] = ()) -> pd.DataFrame:
    """A component's parameters (name, default, what it expects, doc); its doc, kind, pack, metrics and
    other_keys (what keys beyond these it takes, or None) in .attrs. A name that several packs declare is given as
    pack:name."""
    rows = _featurelab.components([os.fspath(p) for p in plugin_path])
    pack, _, bare = name.rpartition(":")
    found = [r for r in rows if r["name"] == bare and (not pack or r["pack"] == pack)]
    if not found:
        names = sorted({r["name"] for r in rows})
        close = difflib.get_close_matches(bare, names, n=3)
        raise FeaturelabError(f"no component '{name}'" + (f"; did you mean {', '.join(close)}?" if close else
                                                          "; featurelab.list() shows them"))
    if len(found) > 1:
        raise FeaturelabError(f"'{name}' is declared by {', '.join(r['pack'] for r in found)}: give pack:{bare}")
    r = found[0]
    frame = pd.DataFrame(r["params"], columns=["name", "default", "expects", "doc"])
    frame.attrs.update(kind=r["kind"], pack=r["pack"], doc=r["doc"], metrics=r["metrics"], other_keys=r["other_keys"])
    return frame


@dataclass
class Run:
    """The results of one or more run directories (see the module's doc)."""

    dirs: List[str]
    axes: List[str]
    jobs: pd.DataFrame = field(repr=False)
    metrics: pd.DataFrame = field(repr=False)
    final: pd.DataFrame = field(repr=False)
    summary: pd.DataFrame = field(repr=False)
    asserts: pd.DataFrame = field(repr=False)
    exit_code: int = 0  # of featurelab.run: 1 when a job failed or an assertion did not hold

    def table(self, name: str, job: int = 0, step: Union[int, None] = None, run: Union[PathLike, None] = None) -> pd.DataFrame:
        """A probe's table (`<probe>.<table>`, e.g. "neuron-feature-cosine.cosine") of a job, at `step` (default:
        the last recorded), as a DataFrame; FileNotFoundError names the tables the job has."""
        run_dir = str(run) if run is not None else self.dirs[0]
        rows = self.jobs[(self.jobs.run == run_dir) & (self.jobs.job == job)]
        if rows.empty:
            raise FeaturelabError(f"{run_dir}: no job {job} (jobs 0 to {len(self.jobs[self.jobs.run == run_dir]) - 1})")
        job_dir = os.path.join(run_dir, "jobs", rows.dir.iloc[0], "tables")
        pattern = re.compile(re.escape(name) + r"\.step(\d+)\.csv$")
        found = sorted((int(m.group(1)), f) for f in (os.listdir(job_dir) if os.path.isdir(job_dir) else [])
                       if (m := pattern.match(f)))
        if step is not None:
            found = [(s, f) for s, f in found if s == step]
        if not found:
            have = sorted(os.listdir(job_dir)) if os.path.isdir(job_dir) else []
            raise FileNotFoundError(f"{job_dir}: no table {name}" + (f" at step {step}" if step is not None else "") +
                                    f"; it has: {', '.join(have) if have else 'none'}")
        return pd.read_csv(os.path.join(job_dir, found[-1][1]), index_col=0)


def _asserts(run_dir: str) -> pd.DataFrame:
    path = os.path.join(run_dir, "asserts.json")
    rows = []
    if os.path.exists(path):
        with open(path) as f:
            for i, a in enumerate(json.load(f)):
                for c in a.get("checks", []) or [{}]:
                    rows.append({"run": run_dir, "assert": i, "expect": a.get("expect"), "over": a.get("over"),
                                 "at": a.get("at"), "holds": a.get("holds"), "point": c.get("point"),
                                 "seed": c.get("seed"), "lhs": c.get("lhs"), "rhs": c.get("rhs"),
                                 "check_holds": c.get("holds"), "warnings": "; ".join(a.get("warnings", []))})
    return pd.DataFrame(rows, columns=["run", "assert", "expect", "over", "at", "holds", "point", "seed", "lhs", "rhs",
                                       "check_holds", "warnings"])


def load(runs: Union[PathLike, Sequence[PathLike]], metrics: Union[str, Iterable[str], None] = None) -> Run:
    """Reads run directories (one, or a list) into DataFrames. `metrics`: names or patterns (*, ?, [...]) to keep
    (default: all). Raises FeaturelabError for a directory that is not a run or a pattern that matches nothing."""
    dirs = [os.fspath(runs)] if isinstance(runs, (str, os.PathLike)) else [os.fspath(r) for r in runs]
    patterns = [metrics] if isinstance(metrics, str) else builtins.list(metrics or [])
    columns = _featurelab.tidy(dirs, patterns)
    long_table = pd.DataFrame(columns["metrics"])
    final = pd.DataFrame(columns["final"])
    summaries = []
    for d in dirs:
        path = os.path.join(d, "summary.csv")
        if os.path.exists(path):
            s = pd.read_csv(path)
            s.insert(0, "run", d)
            summaries.append(s)
    summary = pd.concat(summaries, ignore_index=True) if summaries else pd.DataFrame()
    asserts = pd.concat([_asserts(d) for d in dirs], ignore_index=True)
    return Run(dirs=dirs, axes=builtins.list(columns["axes"]), jobs=pd.DataFrame(columns["jobs"]), metrics=long_table,
               final=final, summary=summary, asserts=asserts)
