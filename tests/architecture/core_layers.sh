#!/usr/bin/env bash
# The core's layers, as core/CMakeLists.txt lists them, checked on every include:
#   - a library's files include its own layer's headers, those of the layers below it, and the facade
#     (core/include/featurelab/core/), never a layer above it: kernel < results < execution < operations;
#   - the facade's headers include only the facade, the SDK and outside libraries;
#   - the hosts (hosts/) include only the facade, the SDK, outside libraries and their own files.
# The build enforces the last two as well (the libraries' own headers are not on a host's include path, and every
# library links with --no-undefined); this says which line broke the rule, and stops a later CMake change from
# quietly widening a host's include path.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"
layers=(kernel results execution operations)
problems=0
say() { echo "$1"; problems=$((problems + 1)); }

for i in "${!layers[@]}"; do
  layer=${layers[$i]}
  allowed=$(printf '%s|' "${layers[@]:0:$((i + 1))}")
  allowed=${allowed%|}
  while IFS= read -r hit; do
    file=${hit%%:*}; rest=${hit#*:}; line=${rest%%:*}; header=$(sed -E 's/.*#include "([^"]+)".*/\1/' <<<"$rest")
    [[ $header =~ ^($allowed)/ ]] && continue
    [[ -f $(dirname "$file")/$header ]] && continue  # a file beside it
    below=${layers[*]:0:$i}
    say "$file:$line: the $layer layer includes \"$header\", which is not in $layer${below:+ or a layer below it ($below)}; move the code down, or call it from above"
  done < <(grep -rnE '^#include "' "core/$layer" || true)
done

while IFS= read -r hit; do
  say "${hit%%:#*}: a facade header includes a library's own header; the facade includes only itself, the SDK and outside libraries"
done < <(grep -rnE '^#include "' core/include || true)

while IFS= read -r hit; do
  file=${hit%%:*}; rest=${hit#*:}; line=${rest%%:*}; header=$(sed -E 's/.*#include "([^"]+)".*/\1/' <<<"$rest")
  [[ -f $(dirname "$file")/$header ]] && continue
  say "$file:$line: a host includes the core's own header \"$header\"; include the facade (<featurelab/core/...>), or add what it needs there"
done < <(grep -rnE '^#include "' hosts || true)

if ((problems > 0)); then
  echo "$problems include(s) across the core's layers (core/CMakeLists.txt, docs/architecture.md)"
  exit 1
fi
echo "core layers: every include of core/ and hosts/ goes down or to the facade"
