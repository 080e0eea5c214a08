#!/usr/bin/env bash
# The cluster commands without a cluster: `job --indices` runs several jobs of a prepared run at once,
# `status` counts the jobs by state and `--missing` names those still to run, `submit --dry-run` writes the
# sbatch scripts cut under MaxArraySize; bad lists are refused naming the part and the range. (tests/slurm/
# runs the same against a real Slurm.)
source "$(dirname "$0")/lib.sh"
fl=$FEATURELAB
crash=$SOURCE_DIR/tests/data/crash.toml  # modes none, segfault, abort, throw, nan, loop, leak: jobs 0-6
export FEATURELAB_PLUGIN_PATH=$FIXTURE_DIR/fixture  # the crash-model

expect 0 "prepared" -- $fl run "$crash" --out "$work/run" --prepare --set experiment.timeout=2
expect 0 "^$work/run: 7 job\(s\), 0 done, 0 failed, 0 interrupted, 0 running, 7 not started" -- $fl status "$work/run"
expect 0 "^0-6$" -- $fl status "$work/run" --missing

expect 2 "--indices: '0-9': index 9 is out of range.*0 to 6" -- $fl job "$work/run" --indices 0-9
expect 2 "--indices: '3-1': the range 3-1 runs backwards" -- $fl job "$work/run" --indices 3-1
expect 2 "give the jobs to run: --index I or --indices" -- $fl job "$work/run"
expect 2 "" -- $fl job "$work/run" --index 1 --indices 1

# Jobs 0 (no crash) and 1 (a segfault) in one process, two at once: one done, one failed, each on its own.
expect 1 "2 job\(s\) on [0-9]+ CPU\(s\), 2 at once" -- $fl job "$work/run" --indices 0-1 --jobs 2
expect 0 "1 done, 1 failed, 0 interrupted, 0 running, 5 not started" -- $fl status "$work/run"
expect 0 "job 1 failed: crashed: Segmentation fault" -- $fl status "$work/run"
expect 0 "^1-6$" -- $fl status "$work/run" --missing
check "the job's summary.json records the command that ran it, with UTC times" \
  bash -c "jq -e '(.provenance.command | index(\"--indices\")) and (.provenance.started | test(\"^[0-9-]+T[0-9:]+Z$\"))' '$work'/run/jobs/0000-*/summary.json >/dev/null"
check "and the git revision of the build with its dirty flag" \
  bash -c "jq -e '.provenance.build | has(\"git_revision\") and (.git_dirty | type == \"boolean\")' '$work'/run/jobs/0000-*/summary.json >/dev/null"
check "run.json records the command that prepared the run" \
  bash -c "jq -e '.provenance.command | index(\"--prepare\")' '$work/run/run.json' >/dev/null"

# Scripts for the 6 jobs left, 2 per task: 3 tasks in arrays of at most 2.
expect 0 "6 job\(s\) in 3 task\(s\) of 2 job\(s\) on 1 CPU\(s\), 2 array\(s\) of at most 2 task\(s\)" -- \
  $fl submit "$work/run" --dry-run --max-array-size 2 --jobs-per-task 2
check "two scripts are written, submission 1's arrays 1 and 2" test "$(ls "$work"/run/slurm/submit-1-*.sbatch | wc -l)" -eq 2
first=$work/run/slurm/submit-1-1.sbatch
second=$work/run/slurm/submit-1-2.sbatch
check "the first runs tasks 0-1 with jobs 1-2 and 3-4" \
  bash -c "grep -qx '#SBATCH --array=0-1' '$first' && grep -qx 'tasks=(1-2 3-4)' '$first'"
check "the second runs task 0 with jobs 5-6" bash -c "grep -qx '#SBATCH --array=0-0' '$second' && grep -qx 'tasks=(5-6)' '$second'"
check "each task runs this featurelab on the run, with its indices" \
  grep -q "^exec '.*featurelab' job '$work/run' --indices \"\${tasks\[\$SLURM_ARRAY_TASK_ID\]}\"$" "$first"
check "the script is valid bash" bash -n "$first"
# The script run by hand as Slurm would run its task 1: jobs 3-4 (a throw and a NaN loss).
SLURM_ARRAY_TASK_ID=1 bash "$first" >"$work/task.log" 2>&1
check "the script's task 1 runs jobs 3 and 4" grep -q "2 job(s) on" "$work/task.log"
expect 0 ", 3 not started" -- $fl status "$work/run"
expect 0 "3 job\(s\) in 3 task\(s\)" -- $fl submit "$work/run" --dry-run --max-array-size 10 --indices 1,2,5 --sbatch=--mem=1G
check "the next submission's script is another file, with the extra #SBATCH line as given" \
  grep -qx '#SBATCH --mem=1G' "$work/run/slurm/submit-2-1.sbatch"
expect 2 "--indices: '7': index 7 is out of range" -- $fl submit "$work/run" --dry-run --indices 7

finish
