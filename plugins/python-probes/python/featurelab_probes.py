"""Ready-made Python probes, and the examples for writing one (plugins/python-probes/README.md). The bridge puts
this module's directory on sys.path, so `module = "featurelab_probes"` needs no `path`."""

import numpy as np


def parameter_norms(step, params, train, test):
    """The Frobenius norm of every parameter block: <probe>.<block>."""
    return {name: float(np.linalg.norm(block)) for name, block in params.items()}
