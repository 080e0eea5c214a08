#!/usr/bin/env bash
# featurelab serve at scale: a run of 1000 jobs (tests/data/sweep.toml, 2 widths × 500 seeds) served, each page request
# timed on its first reading (every job's metrics.jsonl read) and again (only what was appended: nothing), and the
# server's resident memory. The bar: usable within 2 s, under 200 MB. Whole processes, so run it on a quiet
# machine. Usage: bench/serve_scale.sh [BUILD_DIR] (default build).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
fl=${1:-$root/build}/bin/featurelab
work=$(mktemp -d)
trap 'kill "$server" 2>/dev/null || true; rm -rf "$work"' EXIT
seeds=$(seq -s, 0 499)
"$fl" -q run "$root/tests/data/sweep.toml" --out "$work/run" --set "experiment.seeds=[$seeds]" --set probe.2.max_samples=20 \
  || true  # its assertions need not hold: only the files matter here
"$fl" serve "$work/run" --port 0 >"$work/serve.log" 2>&1 &
server=$!
for _ in $(seq 50); do grep -q serving "$work/serve.log" && break; sleep 0.1; done
url=http://127.0.0.1:$(grep -o 'http://127.0.0.1:[0-9]*' "$work/serve.log" | cut -d: -f3)
echo "1000 jobs, $(du -sh "$work/run" | cut -f1) of run directory"
for pass in first again; do
  for page in / /api/runs /api/runs/0/jobs '/api/runs/0/series?metric=accuracy.test' /api/runs/0/finals /api/runs/0/assertions; do
    curl -s -o /dev/null -w "$pass  %{time_total} s  %{size_download} bytes  $page\n" "$url$page"
  done
  sleep 1
done
grep -E 'VmHWM|VmRSS' "/proc/$server/status"
