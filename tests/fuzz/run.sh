#!/usr/bin/env bash
# Runs one libFuzzer target over its committed seed corpus for a while, writing what it discovers
# to a scratch directory (the committed corpus is only read). Exit 0 when nothing was found.
# Usage: run.sh FUZZER CORPUS SECONDS [extra libFuzzer flags]   e.g. run.sh build-fuzz/bin/fuzz-assertion tests/fuzz/corpus/assertion 3600
set -euo pipefail
fuzzer=$(realpath "$1") corpus=$(realpath "$2") seconds=$3
shift 3
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
cd "$scratch"  # crash-*/leak-* reproducers land here; printed below when there are any
status=0
"$fuzzer" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 "$@" "$scratch" "$corpus" \
  || status=$?
for f in crash-* leak-* timeout-* oom-*; do
  [ -e "$f" ] || continue
  echo "reproducer $f (base64):"; base64 "$f"
done
exit $status
