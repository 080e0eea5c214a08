"""Python probes for the tests (tests/e2e/python_probe.sh, hosts/python/tests/test_python_probe.py)."""
import os

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


def cluster_response(step, hooks, features, *, hook: str = "hidden.post", scale: float = 1.0, top: int = 3):
    """The model's activations at `hook` on the four XOR cluster centres (times `scale`): their mean, the `top`
    largest as a table."""
    centres = features["centres"] * scale
    activations = hooks(hook, centres)
    if activations.shape[0] != 4:
        raise AssertionError(f"one row per centre expected, got {activations.shape}")
    return {"mean": float(activations.mean()), "top": np.sort(activations.ravel())[::-1][:top]}


cluster_response.featurelab_params = {
    "hook": {"choices": ["hidden.pre", "hidden.post"], "doc": "the hook point"},
    "scale": {"above": 0, "doc": "the centres' scale"},
    "top": {"min": 1, "max": 80},
}


def pre_activation_error(params, hooks, train):
    """max |hidden.pre − (X Wᵀ + b)| on the training set: 0 up to rounding (std's two-layer)."""
    pre = train["X"] @ params["W"].T + (params["b"].ravel() if "b" in params else 0)
    return float(np.abs(hooks("hidden.pre", train["X"]) - pre).max())


def needs_threshold(step, *, threshold: float):
    """A parameter without a default: the pipeline must set it."""
    return threshold


def keeps_hooks(step, hooks):
    """Keeps the hooks object past its call: using it later must fail, not crash."""
    global _kept
    if step == 0:
        _kept = hooks
        return 0.0
    return float(_kept("hidden.pre", np.zeros((1, 2))).sum())


def newline_metric(step):
    """A metric named across two lines: its job fails, naming it (a name reaches plot scripts line by line)."""
    return {"x\nsystem 'touch never'": 1.0}


def path_table(step):
    """A table named as a path: its job fails (a table's name is part of a file name in the job's tables/)."""
    return {"../outside": np.zeros((2, 2))}


def forks(step):
    """Forks at step 0 and returns in both processes: the fork must not write the job's lines a second time."""
    if step == 0:
        os.fork()
    return 1.0


def _square(x):
    return x * x


def pooled(step):
    """A multiprocessing.Pool inside a job: its workers are forked from the job and ended by Pool.terminate()."""
    import multiprocessing
    with multiprocessing.Pool(2) as pool:
        return {"sum_of_squares": float(sum(pool.map(_square, range(10))))}
