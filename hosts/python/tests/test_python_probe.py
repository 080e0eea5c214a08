"""A probe written in Python, run by featurelab.run in this process while another Python thread is busy (as in a
notebook kernel): every job's worker measures with it and its numbers come back in the DataFrames."""

import os
import threading

import featurelab

DATA = os.path.join(os.environ["SOURCE_DIR"], "tests", "data")
PIPELINE = os.path.join(DATA, "python_probe.toml")


def test_python_probe_in_process_with_a_busy_thread(tmp_path):
    stop = threading.Event()

    def busy():
        while not stop.is_set():
            sum(range(1000))

    thread = threading.Thread(target=busy)
    thread.start()
    try:
        for i in range(3):  # each run forks 4 workers while the thread holds and drops the GIL
            run = featurelab.run(PIPELINE, out=tmp_path / f"r{i}", jobs=2, quiet=True, log=lambda *a: None)
            assert run.exit_code == 0
            assert len(run.final.query("metric == 'py.W_fro'")) == 4
    finally:
        stop.set()
        thread.join()
    rows = run.table("py.row_norms", job=2)
    assert rows.shape == (40, 1)  # width 40: a norm per neuron


def test_python_probe_parameters_and_hooks(tmp_path):
    """The function's own parameters swept, the model's hook points, and a bad parameter refused with its place."""
    hooks = os.path.join(DATA, "python_probe_hooks.toml")
    run = featurelab.run(hooks, set={"probe.0.top": 3}, out=tmp_path / "h", jobs=2, quiet=True, log=lambda *a: None)
    assert run.exit_code == 0
    mean = run.final.query("metric == 'resp.mean'").set_index("probe.0.scale")["value"]
    assert abs(mean[2.0] - 2 * mean[1.0]) < 1e-4 * mean[1.0]  # ReLU without bias: twice the response at twice the scale
    assert run.table("resp.top", job=0).shape == (3, 1)
    try:
        featurelab.validate(hooks, set={"probe.0.top": 0})
    except featurelab.ConfigError as error:
        (where, message), = error.diagnostics
        assert where.startswith(hooks + ":") and "expected an integer in [1, 80], got 0" in message
    else:
        raise AssertionError("top = 0 must be refused")
