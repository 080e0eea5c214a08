#!/usr/bin/env bash
# The edit–build–test loop of a third-party pack, timed on sdk/template against an installed featurelab:
#   scripts/template_build_times.sh PREFIX [ROUNDS]
# (PREFIX from `cmake --install build --prefix PREFIX`). Each round builds a fresh copy of the template twice
# over, with its precompiled headers and without them (its target_precompile_headers lines removed), in turn, and
# prints the seconds of the first build, of rebuilding and running the tests after an edit of the model's source,
# and after an edit of the tests. Run it on a quiet machine: the two arms alternate so drift hits both alike.
set -euo pipefail
prefix=${1:?usage: scripts/template_build_times.sh PREFIX [ROUNDS]}
rounds=${2:-2}
source_dir=$(cd "$(dirname "$0")/../sdk/template" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

seconds() {  # seconds COMMAND...: the wall time of the command, which must succeed
  local start end
  start=$(date +%s.%N)
  "$@" >/dev/null 2>&1
  end=$(date +%s.%N)
  echo "$end - $start" | bc
}
edit_build_test() {  # edit_build_test DIR FILE: touch FILE, rebuild, run the tests
  touch "$1/$2"
  cmake --build "$1/build" -j2 && "$1/build/margins-test"
}
arm() {  # arm NAME: one measurement of the template as given (pch) or without its precompiled headers (plain)
  local dir=$work/$1
  rm -rf "$dir" && cp -r "$source_dir" "$dir"
  if [[ $1 == plain ]]; then
    # Each target_precompile_headers call, with its continuation lines, removed.
    sed -i '/^target_precompile_headers(/,/)$/d' "$dir/CMakeLists.txt"
  fi
  cmake -S "$dir" -B "$dir/build" -DCMAKE_PREFIX_PATH="$prefix" -DCMAKE_BUILD_TYPE=Release >/dev/null
  printf '%-6s first build %5.1f s   model edit + tests %4.1f s   test edit + tests %4.1f s\n' "$1" \
    "$(seconds cmake --build "$dir/build" -j2)" "$(seconds edit_build_test "$dir" src/quadratic_model.cpp)" \
    "$(seconds edit_build_test "$dir" tests/margins_test.cpp)"
}
for _ in $(seq 1 "$rounds"); do
  arm plain
  arm pch
done
