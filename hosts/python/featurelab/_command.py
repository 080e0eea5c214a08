"""The `featurelab` command of a pip-installed package: the CMake-built executable in featurelab/_native/bin, which
finds the core's libraries and the packs beside it."""

import os
import sys


def main() -> None:
    command = os.path.join(os.path.dirname(os.path.abspath(__file__)), "_native", "bin", "featurelab")
    if not os.path.exists(command):
        sys.exit(f"featurelab: {command} is missing; this package was not installed with pip install (use build/bin/featurelab)")
    os.execv(command, [command, *sys.argv[1:]])
