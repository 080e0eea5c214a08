#!/usr/bin/env bash
# Preemption and requeue through a real Slurm: SIGTERM to a running array task ends its job after the step, as
# interrupted; `scontrol requeue` runs the task again and it finishes the job with the results a local run gives.
# The same job submitted twice at once runs once: the second task waits for the first one's lock, then finds the
# job done, and no file is written twice.
source "$(dirname "$0")/cluster.sh"
start_cluster
pipeline=$SOURCE_DIR/tests/data/slurm_long.toml

expect 0 "1 job\(s\): 1 ok" -- $fl run "$pipeline" --out "$work/local" --jobs 1
expect 0 "prepared" -- $fl run "$pipeline" --out "$work/preempted" --prepare
out=$($fl submit "$work/preempted" 2>&1)
id=$(submitted_ids "$out")
check "the job begins its steps" began "$work/preempted" 1
expect 0 "" -- scancel --signal=TERM --full "$id"
check "the task ends on SIGTERM" settled "$id" 60
check "the job is recorded interrupted" grep -q '"status": "interrupted"' "$work"/preempted/jobs/*/summary.json
check "and has no done marker" bash -c "! ls '$work'/preempted/jobs/*/done 2>/dev/null"
check "the task's log says it stopped on SIGTERM" grep -q "interrupted" "$work"/preempted/slurm/*.out
expect 0 "^0$" -- $fl status "$work/preempted" --missing
# slurmd refuses to launch a job whose credential is older than its revocation ("Job 1 already killed, do not launch
# batch job"), and both times have a resolution of a second: the requeued task's credential must come from a later
# second than the cancellation, or the task fails at once (exit 1, no output), as it did one run in four under load.
sleep 2
expect 0 "" -- scontrol requeue "${id}_0"
# Slurm gives a requeued job a later begin time (minutes); the test lets it begin now.
expect 0 "" -- scontrol update JobId="${id}_0" StartTime=now
check "the requeued task ends" settled "$id" 120
check "the job is done now" bash -c "ls '$work'/preempted/jobs/*/done >/dev/null"
# What the task printed, for a failure to read from CI's log.
ls "$work"/preempted/jobs/*/done >/dev/null 2>&1 || {
  scontrol show job -o "$id"; tail -n 20 "$work"/preempted/slurm/*.out; tail -n 20 "$cluster/slurmd.log"
}
check "its requeue is recorded (restart count 1)" \
  bash -c "jq -e '.provenance.slurm.restart_count == \"1\"' '$work'/preempted/jobs/*/summary.json >/dev/null"
expect 0 "1 job\(s\): 1 ok" -- $fl collect "$work/preempted"
check "its results are byte-identical to the local run's" same_results "$work/local" "$work/preempted"

# The same job twice at once (a duplicate submission): one runs it, the other waits on its lock and skips it.
expect 0 "prepared" -- $fl run "$pipeline" --out "$work/twice" --prepare
first=$(submitted_ids "$($fl submit "$work/twice" 2>&1)")
check "the first task begins" began "$work/twice" 1
second=$(submitted_ids "$($fl submit "$work/twice" --indices 0 2>&1)")
check "the first ends" settled "$first" 120
check "the second ends" settled "$second" 60
check "the second waited for the first's lock, then found the job done" \
  bash -c "grep -q 'being run by another featurelab process' '$work'/twice/slurm/${second}_0.out && grep -q 'job 0 is already done' '$work'/twice/slurm/${second}_0.out"
expect 0 "1 job\(s\): 1 ok" -- $fl collect "$work/twice"
check "the job's files are whole: byte-identical to the local run's" same_results "$work/local" "$work/twice"

finish
