#!/usr/bin/env bash
# A 25-job sweep through a real Slurm with MaxArraySize=10: featurelab submit cuts it into arrays under the limit,
# the array tasks run it, and the results are byte-identical to a local `featurelab run`. Several jobs per task
# run side by side on the task's CPUs.
source "$(dirname "$0")/cluster.sh"
start_cluster
pipeline=$SOURCE_DIR/tests/data/slurm_sweep.toml

expect 0 "25 job\(s\): 25 ok" -- $fl run "$pipeline" --out "$work/local" --jobs 2
expect 0 "prepared" -- $fl run "$pipeline" --out "$work/cluster-run" --prepare

# One job per task: 25 tasks, so 3 arrays of at most 10 (task ids 0-9, as MaxArraySize allows).
out=$($fl submit "$work/cluster-run" 2>&1)
echo "$out"
check "the cluster's MaxArraySize is read: 25 tasks in 3 arrays of at most 10" \
  grep -q "25 job(s) in 25 task(s) of 1 job(s) on 1 CPU(s), 3 array(s) of at most 10 task(s)" <<<"$out"
ids=$(submitted_ids "$out")
check "three arrays are submitted" test "$(wc -w <<<"$ids")" -eq 3
check "each script asks for requeue and SIGTERM ahead of its time limit" \
  bash -c "grep -l -- '--requeue' '$work'/cluster-run/slurm/*.sbatch | wc -l | grep -qx 3 && grep -q 'signal=B:TERM@60' '$work'/cluster-run/slurm/*.sbatch"
for id in $ids; do check "array $id ends" settled "$id"; done
expect 0 "0 failed, 0 interrupted, 0 running, 0 unfinished" -- $fl status "$work/cluster-run"
expect 0 "25 job\(s\): 25 ok" -- $fl collect "$work/cluster-run"
check "summary.csv and every metrics.jsonl are byte-identical to the local run" same_results "$work/local" "$work/cluster-run"
check "each job's summary.json records its Slurm array job and task" \
  bash -c "jq -e '.provenance.slurm.array_job_id and .provenance.slurm.array_task_id and .provenance.started and .provenance.ended' '$work'/cluster-run/jobs/0000-*/summary.json >/dev/null"
check "and the build it ran, with the dirty flag" \
  bash -c "jq -e '.provenance.build | has(\"git_revision\") and has(\"git_dirty\")' '$work'/cluster-run/jobs/0000-*/summary.json >/dev/null"

# Five jobs per task on two CPUs: one array of 5 tasks, each running its jobs two at a time.
expect 0 "prepared" -- $fl run "$pipeline" --out "$work/packed" --prepare
out=$($fl submit "$work/packed" --jobs-per-task 5 --cpus-per-task 2 2>&1)
echo "$out"
check "25 jobs in 5 tasks of 5 jobs on 2 CPUs" grep -q "25 job(s) in 5 task(s) of 5 job(s) on 2 CPU(s), 1 array(s)" <<<"$out"
id=$(submitted_ids "$out")
check "the array ends" settled "$id"
check "each task runs its 5 jobs on the task's 2 CPUs, 2 at once" \
  test "$(grep -l "5 job(s) on 2 CPU(s), 2 at once" "$work"/packed/slurm/*.out | wc -l)" -eq 5
expect 0 "25 job\(s\): 25 ok" -- $fl collect "$work/packed"
check "the packed run's results are byte-identical too" same_results "$work/local" "$work/packed"
expect 0 "" -- $fl submit "$work/packed"
check "a finished run has nothing to submit" bash -c "$fl submit '$work/packed' 2>&1 | grep -q 'nothing to submit'"

finish
