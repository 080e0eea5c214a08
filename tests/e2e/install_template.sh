#!/usr/bin/env bash
# Third-party path: install featurelab, build sdk/template out of tree against the installed SDK,
# load it through FEATURELAB_PLUGIN_PATH and run a pipeline mixing it with std components, all
# without rebuilding the core.
source "$(dirname "$0")/lib.sh"
prefix=$work/prefix
core_stamp=$work/core-stamp

check "install featurelab" "$CMAKE" --install "$BUILD_DIR" --prefix "$prefix"
check "installed command" test -x "$prefix/bin/featurelab"
check "installed SDK headers" test -f "$prefix/include/featurelab/pack.hpp"
check "installed PITFALLS.md beside the headers (compiler messages point there)" \
  test -f "$prefix/include/featurelab/PITFALLS.md"
check "the CMake package exports the absolute plugin directory" \
  grep -q 'FEATURELAB_PLUGIN_INSTALL_DIR' "$prefix/lib/cmake/featurelab/featurelabConfig.cmake"
check "installed CMake package" test -f "$prefix/lib/cmake/featurelab/featurelabConfig.cmake"
check "installed std pack and manifest" test -f "$prefix/lib/featurelab/plugins/libstd.featurelab.json"
touch "$core_stamp"

check "configure the template against the installed SDK" \
  "$CMAKE" -S "$SOURCE_DIR/sdk/template" -B "$work/template" -DCMAKE_PREFIX_PATH="$prefix" -DCMAKE_BUILD_TYPE=Release
check "build the template pack" "$CMAKE" --build "$work/template" -j2
# Catch2 tests loading the template's pack and the installed std pack with one harness; the
# model's gradients through check_gradient (std's loss found in FEATURELAB_PLUGIN_INSTALL_DIR).
check "the template's own tests" "$work/template/margins-test"
check "the template includes only the SDK" bash -c "! grep -rn 'core/\|registry/\|engine/' '$SOURCE_DIR/sdk/template/src'"

export FEATURELAB_PLUGIN_PATH=$work/template
expect 0 "margin-stats +margins" -- "$prefix/bin/featurelab" list probe
expect 0 "threshold" -- "$prefix/bin/featurelab" describe margin-stats
expect 0 "assert PASS  margin-stats.train.below" -- \
  "$prefix/bin/featurelab" run "$SOURCE_DIR/sdk/template/pipelines/example.toml" --out "$work/run"
check "the run's manifest names the third-party pack" grep -q '"pack": "margins"' "$work/run/manifest.json"
# The contract checks our packs pass, on the third party's pack (its model, probe and layer), from the install.
expect 0 "contract: margins: 3 components checked \(layer 1, model 1, probe 1\)" -- "$prefix/bin/featurelab" plugins check margins
check "the core was not rebuilt" test -z "$(find "$prefix/bin" "$prefix/lib" -maxdepth 1 -type f -newer "$core_stamp")"
finish
