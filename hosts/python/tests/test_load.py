"""featurelab.load: a 2-point × 2-seed sweep run by the command, read back as DataFrames and checked against the
run's own files (metrics.jsonl lines, summary.csv's means) and against `featurelab export`."""

import glob
import json
import os
import shutil
import subprocess

import pandas as pd
import pytest

import featurelab

FEATURELAB = os.environ["FEATURELAB"]
SWEEP = os.path.join(os.environ["SOURCE_DIR"], "tests", "data", "sweep.toml")


@pytest.fixture(scope="module")
def run_dir(tmp_path_factory):
    out = tmp_path_factory.mktemp("sweep") / "run"
    subprocess.run([FEATURELAB, "-q", "run", SWEEP, "--out", str(out)], check=True)
    return str(out)


def test_metrics_has_every_recorded_value(run_dir):
    run = featurelab.load(run_dir)
    lines = sum(1 for f in glob.glob(os.path.join(run_dir, "jobs", "*", "metrics.jsonl")) for _ in open(f))
    assert len(run.metrics) == lines
    assert list(run.metrics.columns) == ["run", "job", "job_id", "seed", "point", "status", "model.width", "step",
                                         "metric", "value", "source"]
    assert set(run.metrics.source) == {"run"}
    assert run.axes == ["model.width"]
    assert sorted(run.metrics["model.width"].unique()) == [8.0, 40.0]
    assert run.metrics.step.dtype.kind == "i" and run.metrics.value.dtype.kind == "f"
    first = json.loads(open(glob.glob(os.path.join(run_dir, "jobs", "0000-*", "metrics.jsonl"))[0]).readline())
    row = run.metrics[(run.metrics.job == 0) & (run.metrics.metric == first["metric"]) & (run.metrics.step == first["step"])]
    assert row.value.item() == first["value"]


def test_final_means_over_seeds_are_summary_csv(run_dir):
    run = featurelab.load(run_dir)
    means = run.final.groupby(["model.width", "metric"]).value.agg(["mean", "std", "count"]).reset_index()
    merged = means.merge(run.summary, on=["model.width", "metric"])
    assert len(merged) == len(run.summary) > 0
    assert (merged["count"] == merged["n"]).all()
    assert ((merged["mean_x"] - merged["mean_y"]).abs() <= 1e-12).all()
    assert ((merged["std_x"].fillna(0) - merged["std_y"]).abs() <= 1e-12).all()


def test_the_same_numbers_as_featurelab_export(run_dir, tmp_path):
    subprocess.run([FEATURELAB, "-q", "export", run_dir, "--out", str(tmp_path)], check=True)
    exported = pd.read_csv(tmp_path / "metrics.csv")
    loaded = featurelab.load(run_dir).metrics
    pd.testing.assert_frame_equal(exported.reset_index(drop=True), loaded.reset_index(drop=True), check_dtype=False)


def test_evaluations_are_rows_with_their_source(tmp_path):
    out = str(tmp_path / "saved")
    subprocess.run([FEATURELAB, "-q", "run", SWEEP, "--out", out, "--set", "experiment.seeds=[0]", "--save-params", "final"],
                   check=True)
    subprocess.run([FEATURELAB, "-q", "eval", out, "--name", "again"], check=True)
    run = featurelab.load(out)
    assert set(run.metrics.source) == {"run", "eval/again"}
    accuracy = run.final[run.final.metric == "accuracy.test"].pivot(index="job", columns="source", values="value")
    assert len(accuracy) == 2
    assert (accuracy["eval/again"] == accuracy["run"]).all()  # the same weights, the same probe: the same bits


def test_metric_patterns_asserts_and_tables(run_dir):
    run = featurelab.load(run_dir, metrics="accuracy.*")
    assert set(run.metrics.metric) == {"accuracy.train", "accuracy.test"}
    assert set(run.asserts.expect) >= {"accuracy.train >= 0.7"}
    assert run.asserts.check_holds.notna().all()
    # Jobs are ordered by point, then seed: job 2 is width 40, seed 0; a row per neuron.
    cosines = run.table("neuron-feature-cosine.cosine", job=2)
    assert cosines.shape[0] == 40 and run.jobs.loc[run.jobs.job == 2, "model.width"].item() == 40
    first = run.table("neuron-feature-cosine.cosine", job=2, step=0)
    assert not first.equals(cosines)
    with pytest.raises(FileNotFoundError, match="no table nope; it has: neuron-feature-cosine"):
        run.table("nope", job=2)


def test_errors_name_the_problem(run_dir, tmp_path):
    with pytest.raises(featurelab.FeaturelabError, match="not a featurelab run directory"):
        featurelab.load(str(tmp_path))
    with pytest.raises(featurelab.FeaturelabError, match="'acc' matches no metric of 1 run.*recorded: accuracy.test"):
        featurelab.load(run_dir, metrics="acc")


def test_a_damaged_finished_job_is_refused_not_read(run_dir, tmp_path):
    # A line of a finished job's metrics.jsonl changed after it ended: never a shorter frame, an error naming it.
    copy = tmp_path / "damaged"
    shutil.copytree(run_dir, copy)
    metrics = glob.glob(str(copy / "jobs" / "0001-*" / "metrics.jsonl"))[0]
    lines = open(metrics).read().splitlines(keepends=True)
    lines[3] = '{"step":0,"metric":"accuracy.train","value":0.5}\n'
    open(metrics, "w").write("".join(lines))
    with pytest.raises(featurelab.FeaturelabError, match=r"0001-[0-9a-f]+/metrics.jsonl: damaged after the job finished"):
        featurelab.load(str(copy))


def test_several_runs_in_one_frame(run_dir, tmp_path):
    other = tmp_path / "again"
    subprocess.run([FEATURELAB, "-q", "run", SWEEP, "--out", str(other), "--set", "experiment.seeds=[5]"], check=True)
    run = featurelab.load([run_dir, str(other)])
    assert set(run.metrics.run) == {run_dir, str(other)}
    assert sorted(run.jobs.seed.unique()) == [0, 1, 5]
    assert set(run.summary.run) == {run_dir, str(other)}
