"""The probe of numpy-accuracy.toml: a two-layer ReLU network's training accuracy recomputed from its weights."""
import numpy as np


def train_accuracy(step, params, train, test):
    """f(x) = Σ_j a_j relu(w_j · x) (std's two-layer without biases); the fraction of f(x) > 0 ⇔ y = 1."""
    W, a = params["W"], params["a"].ravel()
    f = np.maximum(train["X"] @ W.T, 0) @ a
    return float(np.mean((f > 0) == (train["y"].ravel() == 1)))
