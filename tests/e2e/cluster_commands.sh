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
expect 0 "^$work/run: 7 job\(s\), 0 ok, 0 failed, 0 interrupted, 0 running, 7 unfinished" -- $fl status "$work/run"
expect 0 "^0-6$" -- $fl status "$work/run" --missing

expect 2 "--indices: '0-9': index 9 is out of range.*0 to 6" -- $fl job "$work/run" --indices 0-9
expect 2 "--indices: '3-1': the range 3-1 runs backwards" -- $fl job "$work/run" --indices 3-1
expect 2 "give the jobs to run: --index I or --indices" -- $fl job "$work/run"
expect 2 "" -- $fl job "$work/run" --index 1 --indices 1

# Jobs 0 (no crash) and 1 (a segfault) in one process, two at once: one done, one failed, each on its own.
expect 1 "2 job\(s\) on [0-9]+ CPU\(s\), 2 at once" -- $fl job "$work/run" --indices 0-1 --jobs 2
expect 0 "1 ok, 1 failed, 0 interrupted, 0 running, 5 unfinished" -- $fl status "$work/run"
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
expect 0 ", 3 unfinished" -- $fl status "$work/run"
expect 0 "3 job\(s\) in 3 task\(s\)" -- $fl submit "$work/run" --dry-run --max-array-size 10 --indices 1,2,5 --sbatch=--mem=1G
check "the next submission's script is another file, with the extra #SBATCH line as given" \
  grep -qx '#SBATCH --mem=1G' "$work/run/slurm/submit-2-1.sbatch"
expect 2 "--indices: '7': index 7 is out of range" -- $fl submit "$work/run" --dry-run --indices 7
# Nothing from the data becomes a line of the script. A pipeline's name with a newline is refused where written...
expect 2 "experiment.name: the name .* holds a control character" -- \
  $fl run "$crash" --out "$work/inj" --prepare --set 'experiment.name="x\ntouch INJECTED\n#"'
check "and nothing is prepared" test ! -e "$work/inj/run.json"
# ... and a run prepared elsewhere with one (its run.json edited) gets a Slurm job name of safe characters only.
cp -a "$work/run" "$work/edited" && rm -rf "$work/edited/slurm"
jq --arg name $'x\ntouch '"$work"$'/INJECTED\n#' '.name = $name' "$work/run/run.json" >"$work/edited/run.json"
expect 0 "" -- $fl submit "$work/edited" --dry-run --max-array-size 10 --indices 0
edited=$work/edited/slurm/submit-1-1.sbatch
check "the job name is one word of letters, digits, '.', '-' and '_'" grep -qx '#SBATCH --job-name=featurelab-x_touch_[A-Za-z0-9._-]*INJECTED__' "$edited"
check "no line of the script runs the name's command" bash -c "! grep -q '^touch' '$edited' && bash -n '$edited'"
check "running it as task 0 creates nothing" bash -c "SLURM_ARRAY_TASK_ID=0 bash '$edited' >/dev/null 2>&1; test ! -e '$work/INJECTED'"
# run.json's job directories are recomputed, never taken as paths: one edited to "../outside" or to an absolute
# path makes the run unreadable to job, status and export, and nothing is written there.
cp -a "$work/run" "$work/moved" && rm -rf "$work/moved/slurm"
jq '.jobs[0].dir = "../../outside"' "$work/run/run.json" >"$work/moved/run.json"
expect 2 "job 0 of the list: .*dir \"../../outside\" is not a job this featurelab planned" -- $fl job "$work/moved" --index 0
expect 2 "is not a job this featurelab planned" -- $fl status "$work/moved"
jq --arg dir "$work/absolute" '.jobs[0].dir = $dir' "$work/run/run.json" >"$work/moved/run.json"
expect 2 "is not a job this featurelab planned" -- $fl export "$work/moved" --out "$work/moved-export"
check "and nothing was written outside the run" bash -c "test ! -e '$work/outside' && test ! -e '$work/absolute'"
# The command's own values too: a newline in --partition, --time or an --sbatch option is refused.
expect 2 "--partition \"a\\\\nb\" holds a control character" -- $fl submit "$work/run" --dry-run --partition $'a\nb'
expect 2 "--time .* holds a control character" -- $fl submit "$work/run" --dry-run --time $'1:00\necho TIME_INJECTED'
expect 2 "--sbatch .* holds a control character" -- $fl submit "$work/run" --dry-run --sbatch=$'--mem=1G\necho X'
# Array sizes near the integers' end: one array for every task, never a count that wraps to none.
expect 0 "2 job\(s\) in 2 task\(s\) .* 1 array\(s\) of at most 9223372036854775807 task\(s\)" -- \
  $fl submit "$work/run" --dry-run --indices 5,6 --max-array-size 9223372036854775807
# A cluster's MaxArraySize above Slurm's own ceiling (4000001) is not believed: said, with the way out.
mkdir -p "$work/bin"
printf '#!/bin/sh\necho "MaxArraySize            = 18446744073709551615"\n' >"$work/bin/scontrol"
chmod +x "$work/bin/scontrol"
expect 2 "MaxArraySize = 18446744073709551615, above Slurm's own limit of 4000001; .*--max-array-size" -- \
  env PATH="$work/bin:$PATH" $fl submit "$work/run" --indices 5
# Without Slurm's client: said, with the way out.
expect 2 "scontrol show config could not run .*slurm-client.*--max-array-size N gives it" -- env PATH=/nonexistent $fl submit "$work/run"
expect 2 "cannot run sbatch .*slurm-client.*is written: submit it with sbatch" -- env PATH=/nonexistent $fl submit "$work/run" --max-array-size 4
# A Slurm client that misbehaves (fakes on PATH): an sbatch that prints words or nothing where --parsable prints the
# job id is an error and nothing is recorded; one that does not answer is given up on at --client-timeout.
expect 0 "prepared" -- $fl run "$crash" --out "$work/queued" --prepare
fake() { printf '#!/bin/sh\n%s\n' "$2" >"$work/bin/$1" && chmod +x "$work/bin/$1"; }
submit=(env PATH="$work/bin:$PATH" $fl submit "$work/queued" --max-array-size 10)
fake sbatch 'echo "Submitted batch job 1001"'
expect 2 "sbatch accepted .*submit-1-1.sbatch but printed \"Submitted batch job 1001\", not a job id" -- "${submit[@]}"
fake sbatch 'exit 0'
expect 2 "sbatch accepted .*submit-2-1.sbatch but printed \"\", not a job id" -- "${submit[@]}"
check "neither was recorded as submitted" test ! -e "$work/queued/slurm/submissions.jsonl"
fake sbatch 'exec sleep 600'
start=$SECONDS
expect 2 "sbatch did not answer for .*sbatch did not end within 1 s" -- timeout 60 "${submit[@]}" --client-timeout 1
check "a silent sbatch was given up on at --client-timeout 1 ($((SECONDS - start)) s)" test $((SECONDS - start)) -le 10
# Submitted again while the first arrays wait in the queue: the jobs of tasks squeue still lists are left out.
fake sbatch 'echo 1001'
expect 0 "submitted array 1001 \(7 task\(s\), jobs 0-6\)" -- "${submit[@]}"
fake squeue 'printf "1001_1\n1001_3\n977_0\n"'
expect 0 "2 job\(s\) still queued in Slurm by an earlier submit, not submitted again: 1,3" -- "${submit[@]}" --dry-run
check "the dry run's script holds the other five" grep -qx 'tasks=(0 2 4 5 6)' "$(ls -t "$work"/queued/slurm/submit-*-1.sbatch | head -1)"
fake squeue 'echo "slurm_load_jobs error: Unable to contact slurm controller" >&2; exit 1'
expect 0 "cannot ask Slurm which jobs .*squeue failed: slurm_load_jobs error.*may be queued again" -- "${submit[@]}" --dry-run
rm -f "$work/bin/sbatch" "$work/bin/squeue"

# --mpi: each rank of a launch runs its share, rank and size from the launcher's environment (as mpirun sets them).
sweep=$SOURCE_DIR/tests/data/sweep.toml
unset FEATURELAB_PLUGIN_PATH
expect 0 "4 job\(s\): 4 ok" -- $fl run "$sweep" --out "$work/local"
expect 0 "prepared" -- $fl run "$sweep" --out "$work/ranks" --prepare
expect 2 "--mpi: no MPI rank in the environment" -- $fl job "$work/ranks" --mpi
OMPI_COMM_WORLD_RANK=0 OMPI_COMM_WORLD_SIZE=2 $fl job "$work/ranks" --mpi >"$work/rank0.log" 2>&1 &
rank0=$!
PMI_RANK=1 PMI_SIZE=2 $fl job "$work/ranks" --mpi >"$work/rank1.log" 2>&1
check "rank 1 (MPICH's variables) ran jobs 1 and 3" grep -q "rank 1 of 2 (PMI_RANK/PMI_SIZE): 2 job(s): 1,3" "$work/rank1.log"
wait $rank0
check "rank 0 (Open MPI's) ran jobs 0 and 2" grep -q "rank 0 of 2 (OMPI_COMM_WORLD_RANK/OMPI_COMM_WORLD_SIZE): 2 job(s): 0,2" "$work/rank0.log"
expect 0 "4 job\(s\): 4 ok" -- $fl collect "$work/ranks"
check "the ranks' results are the local run's, byte for byte" \
  bash -c "cmp -s '$work/local/summary.csv' '$work/ranks/summary.csv' && for j in '$work'/local/jobs/*/; do cmp -s \"\$j/metrics.jsonl\" '$work/ranks/jobs/'\$(basename \"\$j\")/metrics.jsonl || exit 1; done"
if command -v mpirun >/dev/null; then
  expect 0 "prepared" -- $fl run "$sweep" --out "$work/mpirun" --prepare
  expect 0 "" -- env OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 mpirun --oversubscribe -np 2 $fl job "$work/mpirun" --mpi
  expect 0 "4 job\(s\): 4 ok" -- $fl collect "$work/mpirun"
else
  echo "note: no mpirun here (Debian's openmpi-bin); the ranks were given as mpirun gives them"
fi

# A job records the sha256 of every data file it read: MNIST's ten digit files, as sha256sum computes them.
expect 0 "1 job\(s\): 1 ok" -- $fl run "$SOURCE_DIR/tests/data/mnist_provenance.toml" --out "$work/mnist"
check "summary.json records the ten digit files read" test "$(jq '.data_files | length' "$work"/mnist/jobs/*/summary.json)" -eq 10
check "with their sha256" bash -c "jq -r '.data_files | to_entries[] | \"\\(.value)  \\(.key)\"' '$work'/mnist/jobs/*/summary.json | sha256sum --quiet -c"

finish
