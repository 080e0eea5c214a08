"""The CMake build behind `pip install --no-build-isolation .` (pyproject.toml).

build_py copies the package's Python files, then builds the project with CMake (a Release build in build-python/,
configured here without tests and benchmarks; or takes the build directory FEATURELAB_BUILD_DIR names as it stands),
installs it into a staging prefix, and lays it out in the package: the module _featurelab next to __init__.py, and
featurelab/_native/ with bin/featurelab, the core's libraries in lib/ and the packs in lib/featurelab/plugins/, where
the module (its run path $ORIGIN/_native/lib) and the command ($ORIGIN/../lib) find them. The `featurelab` command of
the environment runs _native/bin/featurelab (featurelab/_command.py).
"""

import os
import shutil
import subprocess
import sys
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

ROOT = Path(__file__).resolve().parent


def cmake(*args):
    print("featurelab: cmake " + " ".join(args), flush=True)
    subprocess.run(["cmake", *args], check=True)


class BuildWithCMake(build_py):
    def run(self):
        super().run()
        given = os.environ.get("FEATURELAB_BUILD_DIR")  # a build made already: installed from as it stands, not rebuilt
        build = Path(given or ROOT / "build-python").resolve()
        if given and not (build / "CMakeCache.txt").exists():
            raise RuntimeError(f"featurelab: FEATURELAB_BUILD_DIR={given} holds no CMake build (make build makes one)")
        if not given and not (build / "CMakeCache.txt").exists():
            # As `make build` configures it (a unity build: a third of the compile time), without tests and benchmarks.
            cmake("-S", str(ROOT), "-B", str(build), "-DCMAKE_BUILD_TYPE=Release", "-DCMAKE_UNITY_BUILD=ON",
                  "-DFEATURELAB_BUILD_TESTS=OFF", "-DFEATURELAB_BUILD_BENCH=OFF", f"-DPython3_EXECUTABLE={sys.executable}")
        if not given:
            cmake("--build", str(build), "--parallel", str(len(os.sched_getaffinity(0))))
        staging = Path(self.build_lib).parent / "featurelab-prefix"
        shutil.rmtree(staging, ignore_errors=True)
        cmake("--install", str(build), "--prefix", str(staging))
        package = Path(self.build_lib) / "featurelab"
        modules = list(staging.glob("lib/python3*/dist-packages/featurelab/_featurelab*.so"))
        if len(modules) != 1:
            raise RuntimeError(f"featurelab: the build installed {len(modules)} modules _featurelab*.so under {staging}; "
                               "is the Python host enabled (pybind11-dev, python3-dev)?")
        shutil.copy2(modules[0], package / modules[0].name)
        native = package / "_native"
        shutil.rmtree(native, ignore_errors=True)
        shutil.copytree(staging / "bin", native / "bin", symlinks=True)
        # The libraries and packs; not the SDK's headers, CMake files and static test library (a pack's build needs
        # the SDK: make install), nor the Python files installed beside them.
        shutil.copytree(staging / "lib", native / "lib", symlinks=True,
                        ignore=shutil.ignore_patterns("python3*", "cmake", "*.a"))
        shutil.copytree(staging / "share" / "featurelab", native / "share" / "featurelab", symlinks=True)  # serve's page
        if (staging / "libexec").exists():
            shutil.copytree(staging / "libexec", native / "libexec", symlinks=True)


# setuptools' own build directory and egg-info inside build-python/: its default, build/, is CMake's (build/lib holds
# the libraries and packs, which a wheel made from build/lib/featurelab would take in).
(ROOT / "build-python").mkdir(exist_ok=True)
setup(cmdclass={"build_py": BuildWithCMake},
      options={"build": {"build_base": str(ROOT / "build-python" / "setuptools")},
               "egg_info": {"egg_base": str(ROOT / "build-python")}})
