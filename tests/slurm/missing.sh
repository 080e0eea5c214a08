#!/usr/bin/env bash
# Tasks cancelled before they ran: `featurelab status --missing` names exactly their jobs, in --array syntax, and
# `featurelab submit` resubmits only those, which completes the run.
source "$(dirname "$0")/cluster.sh"
start_cluster
pipeline=$SOURCE_DIR/tests/data/slurm_sweep.toml

expect 0 "prepared" -- $fl run "$pipeline" --out "$work/run" --prepare --set 'experiment.seeds=[0, 1]'
# Held, so that three tasks can be cancelled before any runs; then released.
out=$($fl submit "$work/run" --sbatch=--hold 2>&1)
echo "$out"
id=$(submitted_ids "$out")
check "one array of 10 tasks" test "$(wc -w <<<"$id")" -eq 1
expect 0 "" -- scancel "${id}_3" "${id}_7" "${id}_8"
expect 0 "" -- scontrol release "$id"
check "the other tasks end" settled "$id"
expect 0 "7 ok, 0 failed, 0 interrupted, 0 running, 3 unfinished" -- $fl status "$work/run"
expect 0 "^3,7-8$" -- $fl status "$work/run" --missing
out=$($fl submit "$work/run" 2>&1)
echo "$out"
check "only the missing jobs are resubmitted" grep -q "3 job(s) in 3 task(s)" <<<"$out"
check "their array ends" settled "$(submitted_ids "$out")"
expect 0 "10 ok, 0 failed" -- $fl status "$work/run"
expect 0 "" -- $fl status "$work/run" --missing
expect 0 "10 job\(s\): 10 ok" -- $fl collect "$work/run"

finish
