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

# A host of one's own: built against the install's facade (<featurelab/core/...>, featurelab::execution), it plans,
# runs and reads back a pipeline of std's, and cannot include the core's own headers (they are not installed).
check "configure a host of one's own" "$CMAKE" -S "$SOURCE_DIR/tests/data/own-host" -B "$work/own-host" \
  -DCMAKE_PREFIX_PATH="$prefix" -DCMAKE_BUILD_TYPE=Release
check "build it" "$CMAKE" --build "$work/own-host" -j2
expect 0 "exit 0, 2 ok of 2" -- "$work/own-host/own-host" "$SOURCE_DIR/plugins/std/pipelines/xor-network.toml" "$work/own-run"
check "the facade is installed and the core's own headers are not" bash -c "test -f '$prefix/include/featurelab/core/session.hpp' &&
  ! find '$prefix/include' -path '*/kernel/*' -o -path '*/execution/*' -o -path '*/results/*' -o -path '*/operations/*' | grep -q ."

# The SDK alone (the core, the command, std, the contract test, the CMake package): an install that needs no paper
# pack to have been built.
check "install the SDK component" "$CMAKE" --install "$BUILD_DIR" --prefix "$work/sdk-only" --component sdk
check "with the command, the headers, the CMake package and std" bash -c "test -x '$work/sdk-only/bin/featurelab' &&
  test -f '$work/sdk-only/include/featurelab/pack.hpp' && test -f '$work/sdk-only/lib/cmake/featurelab/featurelabConfig.cmake' &&
  test -f '$work/sdk-only/lib/featurelab/plugins/libstd.so' && test -f '$work/sdk-only/lib/featurelab/plugins/libstd.featurelab.json'"
check "and no paper pack" bash -c "! ls '$work'/sdk-only/lib/featurelab/plugins/ | grep -v '^libstd\.'"

# Plugin builds that cannot go wrong quietly. The scalar type is the installed featurelab's: asking for the other
# one is refused at configure time, and compiling for it by hand at the first compile.
if grep -q 'set(FEATURELAB_DOUBLE OFF)' "$prefix/lib/cmake/featurelab/featurelabConfig.cmake"; then other=ON; else other=OFF; fi
expect 1 "FEATURELAB_DOUBLE=$other asks for another scalar type" -- \
  "$CMAKE" -S "$SOURCE_DIR/sdk/template" -B "$work/other-scalar" -DCMAKE_PREFIX_PATH="$prefix" -DFEATURELAB_DOUBLE=$other
if [[ $other == ON ]]; then by_hand=-DFEATURELAB_SCALAR_DOUBLE; else by_hand=-UFEATURELAB_SCALAR_DOUBLE; fi
check "configure the template with the scalar type's macro set by hand" \
  "$CMAKE" -S "$SOURCE_DIR/sdk/template" -B "$work/by-hand" -DCMAKE_PREFIX_PATH="$prefix" "-DCMAKE_CXX_FLAGS=$by_hand"
build_fails() {  # build_fails PATTERN DIR: building the pack in DIR fails (whatever the build tool's status), saying PATTERN
  ! "$CMAKE" --build "$2" --target margins >"$2.log" 2>&1 && grep -qE -- "$1" "$2.log"
}
check "compiling for the other scalar type by hand stops at the first compile, naming it" \
  build_fails "error: .*featurelab: this SDK was built with (float|double) as its scalar type" "$work/by-hand"
# A pack that names no build type builds Release; a source file left out of SOURCES fails its link with the missing
# function's name (it used to pass the build and kill featurelab with a mangled symbol when the manifest was made).
cp -r "$SOURCE_DIR/sdk/template" "$work/forgetful"
sed -i 's| src/margin_stats_probe.cpp||' "$work/forgetful/CMakeLists.txt"
expect 0 "featurelab: no CMAKE_BUILD_TYPE given; building Release" -- \
  "$CMAKE" -S "$work/forgetful" -B "$work/forgetful/build" -DCMAKE_PREFIX_PATH="$prefix"
check "the cache says Release" grep -qx 'CMAKE_BUILD_TYPE:STRING=Release' "$work/forgetful/build/CMakeCache.txt"
check "a source left out of SOURCES fails the link, naming what it defines" \
  build_fails "undefined reference to .*margins_pack::MarginStatsProbe" "$work/forgetful/build"
finish
