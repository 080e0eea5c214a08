"""featurelab.run, validate, list and describe in this process: the same files as the command, the same errors as
Python exceptions that carry the file and line, progress to a callback."""

import glob
import os
import signal
import subprocess
import threading
import time

import pytest

import featurelab

FEATURELAB = os.environ["FEATURELAB"]
SWEEP = os.path.join(os.environ["SOURCE_DIR"], "tests", "data", "sweep.toml")


def test_validate_summarises_the_plan():
    plan = featurelab.validate(SWEEP)
    assert (plan["name"], plan["jobs"], plan["points"], plan["seeds"]) == ("sweep", 4, 2, 2)
    assert "width = 40" in plan["operative"][1]
    assert featurelab.validate(SWEEP, set={"experiment.seeds": [3]})["jobs"] == 2


def test_errors_carry_where_and_the_fix():
    with pytest.raises(featurelab.ConfigError) as caught:
        featurelab.validate(SWEEP, set={"model.widht": 5})
    where = [w for w, _ in caught.value.diagnostics]
    assert any(w.startswith("--set model.widht") for w in where), caught.value.diagnostics
    assert "width" in str(caught.value)  # the suggestion
    with pytest.raises(featurelab.ConfigError) as caught:
        featurelab.validate(SWEEP, set={"model.width": 5})  # a swept key
    assert "sweep.toml:" in str(caught.value)
    assert isinstance(caught.value, featurelab.FeaturelabError)
    with pytest.raises(featurelab.ConfigError, match="/nonexistent.toml: no such pipeline file"):
        featurelab.validate("/nonexistent.toml")


def test_run_in_process_equals_the_command(tmp_path):
    lines = []
    run = featurelab.run(SWEEP, out=tmp_path / "py", jobs=2, log=lambda level, message: lines.append((level, message)))
    assert run.exit_code == 0
    assert len(run.final) > 0 and sorted(run.jobs.seed) == [0, 0, 1, 1]
    assert sum("done in" in m for _, m in lines) == 4, lines  # a line per finished job
    assert any("assert PASS" in m for _, m in lines)
    subprocess.run([FEATURELAB, "-q", "run", SWEEP, "--out", str(tmp_path / "cli"), "--jobs", "1"], check=True)
    for f in sorted(glob.glob(str(tmp_path / "cli" / "jobs" / "*" / "metrics.jsonl"))):
        mine = tmp_path / "py" / "jobs" / os.path.basename(os.path.dirname(f)) / "metrics.jsonl"
        assert open(f, "rb").read() == open(mine, "rb").read()
    again = featurelab.run(SWEEP, out=tmp_path / "py", quiet=True, log=lambda level, message: lines.append(message))
    assert again.exit_code == 0 and len(again.metrics) == len(run.metrics)  # resumed: every job already done


def test_a_failing_assertion_is_an_exit_code_not_an_exception(tmp_path):
    lines = []
    run = featurelab.run(SWEEP, set={"assert.0.expect": "accuracy.train >= 0.999", "experiment.seeds": [0]},
                         out=tmp_path / "r", quiet=True, log=lambda level, message: lines.append((level, message)))
    assert run.exit_code == 1
    assert lines == []  # quiet: not even the failing assertion's error line; it is in run.asserts
    assert not run.asserts[run.asserts["assert"] == 0].holds.all()


def test_list_and_describe():
    models = featurelab.list("model")
    assert "two-layer" in set(models.name) and set(models.kind) == {"model"}
    params = featurelab.describe("two-layer")
    assert "width" in set(params.name)
    assert params.attrs["kind"] == "model" and params.attrs["doc"] and params.attrs["other_keys"] is None
    assert "signature" in featurelab.describe("python").attrs["other_keys"]  # its function's own parameters
    with pytest.raises(featurelab.FeaturelabError, match="no component 'two-layr'; did you mean"):
        featurelab.describe("two-layr")
    with pytest.raises(featurelab.FeaturelabError, match="unknown kind 'modle'"):
        featurelab.list("modle")


def test_saved_parameters_load_with_numpy(tmp_path):
    """save_params="final": each job's blocks as .npy files, which np.load reads, with their hashes recorded."""
    import hashlib
    import json
    import numpy as np
    run = featurelab.run(SWEEP, out=tmp_path / "saved", jobs=2, quiet=True, log=lambda *a: None, save_params="final")
    job_dir = os.path.join(tmp_path, "saved", "jobs", run.jobs.dir[0])
    summary = json.load(open(os.path.join(job_dir, "summary.json")))
    path = os.path.join(job_dir, "params", "step000060", "W.npy")
    assert np.load(path).shape == (8, 2)
    assert summary["saved_params"]["step000060/W.npy"] == hashlib.sha256(open(path, "rb").read()).hexdigest()


def test_ctrl_c_stops_the_component_check():
    # A constructor that never returns (crash-model's loop, at_call = 0), in the check that builds every component
    # before the first job: Ctrl-C in a notebook raises KeyboardInterrupt at once, as it does in Python code.
    crash = os.path.join(os.environ["SOURCE_DIR"], "tests", "data", "crash.toml")
    fixture = os.path.join(os.environ["FIXTURE_DIR"], "fixture")
    timer = threading.Timer(1.0, os.kill, (os.getpid(), signal.SIGINT))
    timer.start()
    start = time.monotonic()
    with pytest.raises(KeyboardInterrupt, match="while the components were being built"):
        featurelab.validate(crash, set=["model.at_call=0", 'sweep."model.mode"=["loop"]'], plugin_path=[fixture])
    timer.join()
    assert time.monotonic() - start < 10


def test_a_progress_bar_over_the_jobs(tmp_path, monkeypatch):
    # tqdm's own bar, its numbers read back: 4 jobs, 4 done; the job lines are the bar's, not the log's.
    import tqdm.auto as tqdm_auto
    from tqdm import tqdm as real_tqdm
    bars, lines = [], []

    def bar(**kwargs):
        bars.append(real_tqdm(**kwargs, file=open(os.devnull, "w")))
        return bars[-1]

    monkeypatch.setattr(tqdm_auto, "tqdm", bar)
    run = featurelab.run(SWEEP, out=tmp_path / "r", jobs=2, progress=True, log=lambda level, m: lines.append(m))
    assert run.exit_code == 0
    assert (bars[0].total, bars[0].n) == (4, 4)
    assert not any("done in" in m for m in lines), lines  # the bar's, not printed
    assert any("assert PASS" in m for m in lines)
    import featurelab._progress as progress
    bars.clear()
    job_bar = progress.JobBar(bar, "sweep.toml")
    for m in ["sweep: 4 job(s) (2 sweep point(s) × 2 seed(s)), 2 worker(s), into runs/x", "#0 seed 0 model.width=8 done in 0.3s",
              "#1 seed 1 model.width=8 failed: killed (signal 9)", "#2 seed 0 model.width=40 interrupted", "assert PASS  x"]:
        job_bar.feed(m)
    assert (bars[0].total, bars[0].n, job_bar.failed) == (4, 3, 1)
    resumed = progress.JobBar(bar, "sweep.toml")
    resumed.feed("sweep: 4 job(s) (2 sweep point(s) × 2 seed(s)), 3 already done, 1 worker(s), into runs/x")
    assert (bars[1].total, bars[1].n) == (4, 3)


def test_search_with_an_optuna_sampler_reuses_trials_by_hash(tmp_path):
    optuna = pytest.importorskip("optuna")
    optuna.logging.set_verbosity(optuna.logging.WARNING)
    space = {"optimizer.lr": {"log-uniform": [0.01, 1.0]}, "train.eval_every": {"int": [5, 20]},
             "model.activation": {"choice": ["relu", "tanh"]}}
    fixed = {"experiment.seeds": [0, 1], "train.steps": 20}  # each trial: sweep.toml's 2 widths × 2 seeds
    study, runs = featurelab.search(SWEEP, space, "accuracy.test", 4, tmp_path / "s", set=fixed,
                                    sampler=optuna.samplers.RandomSampler(seed=0), quiet=True, jobs=2)
    assert len(study.trials) == 4 and len(runs) == 4
    for trial in study.trials:
        run = runs[trial.number]
        assert run.jobs.status.eq("ok").all() and len(run.jobs) == 4
        assert trial.value == run.final.query("metric == 'accuracy.test'").value.mean()
        assert 0.01 <= trial.params["optimizer.lr"] <= 1.0 and 5 <= trial.params["train.eval_every"] <= 20
        assert trial.user_attrs["run"].startswith(str(tmp_path / "s" / "trial-"))
    # The same sampler seed again: the same values, the same directories, every job already done.
    lines = []
    again, _ = featurelab.search(SWEEP, space, "accuracy.test", 4, tmp_path / "s", set=fixed,
                                 sampler=optuna.samplers.RandomSampler(seed=0), log=lambda level, m: lines.append(m), jobs=2)
    assert [t.value for t in again.trials] == [t.value for t in study.trials]
    assert sum("4 already done" in m for m in lines) == 4, lines
    with pytest.raises(ValueError, match="expected one of"):
        featurelab.search(SWEEP, {"model.init_scale": {"integer": [4, 5]}}, "accuracy.test", 1, tmp_path / "bad")
