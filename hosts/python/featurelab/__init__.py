"""featurelab from Python: a run directory's results as pandas DataFrames.

    import featurelab
    run = featurelab.load("runs/fig1")                 # or a list of run directories
    run.jobs         # one row per job: run, job, job_id, seed, point, status, <sweep keys>, dir
    run.metrics      # one row per recorded value: run, job, job_id, seed, point, status, <sweep keys>, step, metric, value
    run.final        # one row per finished job and metric (its last value)
    run.summary      # summary.csv of each run: mean, std, min, max over seeds per sweep point and metric
    run.asserts      # one row per assertion and check: expect, over, holds, point, seed, lhs, rhs
    run.table("neuron-feature-cosine.cosine", job=0)   # a probe's table at its last step, as a DataFrame

    # mean ± std over seeds of a curve, per sweep point:
    run.metrics.query("metric == 'accuracy.test'").groupby(["model.width", "step"]).value.agg(["mean", "std"])

The tables are those of `featurelab export` (the same C++ reader), so a DataFrame and an exported CSV agree.
"""

from __future__ import annotations

import json
import os
import re
from dataclasses import dataclass, field
from typing import Iterable, List, Sequence, Union

import pandas as pd

from ._featurelab import FeaturelabError, tidy as _tidy

__all__ = ["FeaturelabError", "Run", "load"]

PathLike = Union[str, os.PathLike]


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
    patterns = [metrics] if isinstance(metrics, str) else list(metrics or [])
    columns = _tidy(dirs, patterns)
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
    return Run(dirs=dirs, axes=list(columns["axes"]), jobs=pd.DataFrame(columns["jobs"]), metrics=long_table,
               final=final, summary=summary, asserts=asserts)
