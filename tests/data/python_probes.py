"""Python probes for the tests (tests/e2e/python_probe.sh, hosts/python/tests/test_python_probe.py)."""
import numpy as np


def norms(step, params, train, test):
    """‖W‖_F, the training set's size, and each neuron's norm as a table."""
    W = params["W"]
    if W.flags.writeable:
        raise AssertionError("the parameters must come read-only")
    return {"W_fro": float(np.linalg.norm(W)), "n_train": float(train["X"].shape[0]),
            "label_mean": float(train["y"].mean()), "row_norms": np.linalg.norm(W, axis=1)}


def raises_late(step, params, train, test):
    """Fails at step 40 for the width-40 models only: their jobs fail, the others' do not."""
    if step >= 40 and params["W"].shape[0] == 40:
        raise ValueError(f"a measurement that fails at step {step}")
    return 0.0
