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
            run = featurelab.run(PIPELINE, set={"probe.3.path": DATA}, out=tmp_path / f"r{i}", jobs=2, quiet=True,
                                 log=lambda *a: None)
            assert run.exit_code == 0
            assert len(run.final.query("metric == 'py.W_fro'")) == 4
    finally:
        stop.set()
        thread.join()
    rows = run.table("py.row_norms", job=2)
    assert rows.shape == (40, 1)  # width 40: a norm per neuron
