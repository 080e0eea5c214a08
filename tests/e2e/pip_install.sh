#!/usr/bin/env bash
# pip install: in a virtual environment made with Debian's python3 (--system-site-packages: numpy and pandas from
# Debian), `pip install --no-build-isolation --no-index .` of a copy of the sources, offline, builds the package with
# CMake (here from this build directory, FEATURELAB_BUILD_DIR: nothing to compile again) and installs the module, the
# command, the libraries and the packs into the environment; from another directory `import featurelab` runs a sweep
# with the installed packs, and the environment's `featurelab` command runs one too.
source "$(dirname "$0")/lib.sh"
build=$(cd "$(dirname "$FEATURELAB")/.." && pwd)
if ! /usr/bin/python3 -c "import venv, ensurepip, setuptools, wheel" 2>/dev/null; then
  echo "skipped: python3-venv, python3-setuptools or python3-wheel is missing (make deps installs them)"
  exit 77
fi
mkdir -p "$work/src"
tar -C "$SOURCE_DIR" --exclude='./build*' --exclude=./.git --exclude=./.deps --exclude=./runs -cf - . | tar -C "$work/src" -xf -
expect 0 "" -- /usr/bin/python3 -m venv --system-site-packages "$work/venv"
expect 0 "Successfully installed featurelab-0.1.0" -- env FEATURELAB_BUILD_DIR="$build" \
  "$work/venv/bin/pip" install --no-build-isolation --no-index "$work/src"
site=$("$work/venv/bin/python" -c "import sysconfig; print(sysconfig.get_paths()['platlib'])")
check "the module, the command, the std pack and serve's page inside the package" \
  bash -c "ls '$site'/featurelab/_featurelab*.so && test -x '$site/featurelab/_native/bin/featurelab' &&
           ls '$site'/featurelab/_native/lib/featurelab/plugins/libstd.so '$site'/featurelab/_native/share/featurelab/web/chart.min.js" >/dev/null
cd "$work" || exit 1
cat >"$work/sweep.py" <<PY
import featurelab
run = featurelab.run("$SOURCE_DIR/tests/data/sweep.toml", out="$work/py-run", jobs=2, quiet=True)
assert featurelab.__file__.startswith("$site"), featurelab.__file__
assert run.exit_code == 0 and len(run.jobs) == 4 and set(run.jobs.status) == {"ok"}, run.jobs
print("ran", len(run.jobs), "jobs with", featurelab.__file__)
PY
expect 0 "ran 4 jobs with $site/featurelab/__init__.py" -- env -u PYTHONPATH -u FEATURELAB_PLUGIN_PATH "$work/venv/bin/python" "$work/sweep.py"
expect 0 "4 job\(s\): 4 ok" -- env -u FEATURELAB_PLUGIN_PATH "$work/venv/bin/featurelab" run "$SOURCE_DIR/tests/data/sweep.toml" --out "$work/cli-run"
check "the same bits from the module and the command" \
  bash -c "cd '$work' && for f in py-run/jobs/*/metrics.jsonl; do cmp -s \$f cli-run/\${f#py-run/} || exit 1; done"

echo "$checks checks, $failures failed"
[[ $failures -eq 0 ]]
