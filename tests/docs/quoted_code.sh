#!/usr/bin/env bash
# The code that docs/architecture.md quotes is still in the files it names: each ```cpp block's lines ("..."
# elisions aside) must appear, in order, in one of the files (or folders) the paragraph above the block names in
# backticks (a block right after another is checked against the same files). `.cpp` after a path names that
# path's sibling with the other extension.
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
doc="${1:-$root/docs/architecture.md}"
failures=0
paragraph=()   # the backticked tokens since the last block
in_block=0
block=()
block_line=0
last_candidates=()

# The block's lines, in order, in the text of one candidate: 0 if found.
in_order() {
  local text="$1"; shift
  local line rest="$text"
  for line in "$@"; do
    case "$rest" in
      *"$line"*) rest="${rest#*"$line"}" ;;
      *) return 1 ;;
    esac
  done
}

checked=0
check_block() {
  checked=$((checked + 1))
  local candidates=() previous="" token
  for token in "${paragraph[@]}"; do
    [[ -z "$token" || "$token" == *' '* ]] && continue
    if [[ "$token" == .* && -n "$previous" ]]; then token="${previous%.*}$token"; fi
    if [[ -e "$root/$token" ]]; then candidates+=("$root/$token"); previous="$token"; fi
  done
  if [[ ${#candidates[@]} -eq 0 && ${#last_candidates[@]} -gt 0 ]]; then candidates=("${last_candidates[@]}"); fi
  last_candidates=("${candidates[@]}")
  if [[ ${#candidates[@]} -eq 0 ]]; then
    echo "$doc:$block_line: a quoted block with no file named above it (name the file in backticks)"
    failures=$((failures + 1)); return
  fi
  local lines=() l
  for l in "${block[@]}"; do
    l="${l#"${l%%[![:space:]]*}"}"
    [[ -z "$l" || "$l" == "..." ]] && continue
    lines+=("$l")
  done
  local c text
  for c in "${candidates[@]}"; do
    if [[ -d "$c" ]]; then text="$(cat "$c"/* 2>/dev/null | sed 's/^[[:space:]]*//')"; else text="$(sed 's/^[[:space:]]*//' "$c")"; fi
    if in_order "$text" "${lines[@]}"; then return; fi
  done
  echo "$doc:$block_line: the quoted block is not (or no longer, in this order) in ${candidates[*]#$root/}"
  failures=$((failures + 1))
}

n=0
while IFS= read -r line || [[ -n "$line" ]]; do
  n=$((n + 1))
  stripped="${line#"${line%%[![:space:]]*}"}"
  if [[ $in_block -eq 1 ]]; then
    if [[ "$stripped" == '```' ]]; then check_block; in_block=0; paragraph=(); else block+=("$line"); fi
    continue
  fi
  if [[ "$stripped" == '```cpp' ]]; then in_block=1; block=(); block_line=$n; continue; fi
  [[ "$stripped" == '#'* ]] && paragraph=()
  rest="$line"
  while [[ "$rest" == *'`'*'`'* ]]; do
    rest="${rest#*\`}"; paragraph+=("${rest%%\`*}"); rest="${rest#*\`}"
  done
done < "$doc"

if [[ $failures -gt 0 ]]; then echo "$failures quoted block(s) out of date in $doc"; exit 1; fi
if [[ $checked -eq 0 ]]; then echo "$doc quotes no code: nothing checked"; exit 1; fi
echo "all $checked quoted blocks of $doc are in the files they name"
