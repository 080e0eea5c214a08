#!/usr/bin/env bash
# Throughput of a 5-seed sweep of Frei et al. Figure 1 (plugins/std/pipelines/xor-figure1.toml) with one and with
# two worker processes: prints the wall time of each and the speed-up. Usage: bench/sweep_throughput.sh [BUILD]
set -euo pipefail
build=${1:-build}
pipeline="$(dirname "$0")/../plugins/std/pipelines/xor-figure1.toml"
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
declare -A seconds
for jobs in 1 2; do
  start=$(date +%s.%N)
  "$build/bin/featurelab" -q run "$pipeline" --out "$out/jobs$jobs" --jobs "$jobs" --set 'experiment.seeds=[1,2,3,4,5]'
  seconds[$jobs]=$(awk -v a="$(date +%s.%N)" -v b="$start" 'BEGIN { print a - b }')
  printf 'jobs %d: %.2f s\n' "$jobs" "${seconds[$jobs]}"
done
awk -v a="${seconds[1]}" -v b="${seconds[2]}" 'BEGIN { printf "speed-up: %.2fx\n", a / b }'
