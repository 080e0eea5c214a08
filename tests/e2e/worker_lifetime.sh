#!/usr/bin/env bash
# No worker outlives its run, and the parent never leaves with workers running: a log reader that
# goes away does not kill the run; a parent killed with -9 takes its workers with it; a timed-out
# job's subprocesses end with it; a failed fork() goes on with fewer workers or stops cleanly
# (exit 1); a disk full while a crashed job is recorded fails that job alone; a summary that cannot
# be written at the end is exit 1.
source "$(dirname "$0")/lib.sh"
source "$(dirname "$0")/cgroup_lib.sh"
fl=$FEATURELAB
xor=$SOURCE_DIR/tests/data/xor-small.toml
fixture=(--plugin-path "$FIXTURE_DIR/fixture")   # crash-model
slow=(--set data.train=100000 --set data.test=1000 --set model.width=500 --set train.steps=60
      --set 'experiment.seeds=[0, 1]')   # steps of about 50 ms

# A pipeline of crash-model jobs, one per mode given: crash_pipeline FILE MODE...
crash_pipeline() {
  local file=$1
  shift
  local modes
  modes=$(printf '"%s", ' "$@")
  sed "s/^\"model.mode\" = .*/\"model.mode\" = [${modes%, }]/" "$SOURCE_DIR/tests/data/crash.toml" >"$file"
}

# The reader of the log goes away (`| head -2`): the run is not killed by SIGPIPE; it completes.
$fl run "$xor" --out "$work/piped" --set 'experiment.seeds=[0, 1, 2, 3]' --set train.steps=2000 --jobs 2 2>&1 | head -2 >/dev/null
status=${PIPESTATUS[0]}
check "a run whose log reader went away completes (exit $status)" test "$status" -eq 0
check "... with all 4 jobs done" test "$(ls "$work"/piped/jobs/*/done 2>/dev/null | wc -l)" -eq 4
check "... and no process left" none_left "$work/piped"

# The run's own summary cannot be written at the end (here summary.csv is a directory): exit 1 with
# the reason, not 2 ("bad input"); the jobs are kept.
rm -f "$work/piped/summary.csv"
mkdir -p "$work/piped/summary.csv/in-the-way"
expect 1 "cannot write summary.csv: .*; the jobs are kept, and featurelab collect .*piped rebuilds it" -- \
  $fl run "$xor" --out "$work/piped" --set 'experiment.seeds=[0, 1, 2, 3]' --set train.steps=2000 --resume

# kill -9 of the parent alone: its workers die with it.
setsid $fl run "$xor" --out "$work/orphans" "${slow[@]}" --jobs 2 -q >/dev/null 2>&1 &
pid=$!
check "kill -9: the jobs began" began "$work/orphans" 2
kill -9 "$pid"
wait "$pid" 2>/dev/null
check "kill -9 of the parent leaves no worker" none_left "$work/orphans" "$pid"

# A job that started a subprocess and then timed out: the subprocess is killed with it.
crash_pipeline "$work/fork-sleep.toml" fork-sleep
setsid $fl "${fixture[@]}" run "$work/fork-sleep.toml" --out "$work/tree" --set experiment.timeout=1 -q >"$work/tree.log" 2>&1 &
pid=$!
wait "$pid"
status=$?
check "the timed-out job failed the run (exit $status)" test "$status" -eq 1
check "the job says it timed out" grep -q "timed out after 1 s" "$work"/tree/jobs/0000-*/summary.json
check "its subprocess (sleep 600) did not survive it" none_left "$work/tree" "$pid"

# fork() fails: the run's processes are capped by a pids cgroup or, where none can be made, by the
# user nobody's RLIMIT_NPROC (not enforced on root's own processes). With one worker running, the
# run goes on with it; with none, it stops starting jobs, writes what it has and says why.
crash_pipeline "$work/three.toml" none
three=(--set 'experiment.seeds=[0, 1, 2]' --set train.steps=200000 --jobs 2)
runs=$work
if make_cgroup pids; then
  cap=cgroup
elif [[ $(id -u) -eq 0 ]] && command -v runuser prlimit >/dev/null && runuser -u nobody -- test -x "$fl" 2>/dev/null; then
  cap=nproc
  chmod 755 "$work"
  runs=$work/nobody
  mkdir -m 777 "$runs"
else
  cap=
fi
capped() {  # capped N COMMAND...: the command, its processes capped at N
  local n=$1
  shift
  if [[ $cap == cgroup ]]; then
    echo "$n" >"$cgroup_dir/pids.max"
    in_cgroup "$cgroup_dir" "$@"
  else
    runuser -u nobody -- prlimit --nproc="$((n + $(pgrep -c -u nobody)))" "$@"
  fi
}
take_a_place() {  # another process under the cap (moving a process into a cgroup is not limited)
  if [[ $cap == cgroup ]]; then
    sleep 30 &
    echo $! >"$cgroup_dir/cgroup.procs"
  else
    runuser -u nobody -- sleep 30 &
  fi
  sleeper=$!
}
if [[ -n $cap ]]; then
  expect 0 "cannot start another worker process \(fork: Resource temporarily unavailable.*\); going on with 1" -- \
    capped 2 $fl "${fixture[@]}" run "$work/three.toml" --out "$runs/fewer" "${three[@]}"
  check "with fewer workers every job ran" test "$(ls "$runs"/fewer/jobs/*/done 2>/dev/null | wc -l)" -eq 3
  check "... and no process is left" none_left "$runs/fewer"
  # Once the first job runs, another process takes the last place: when the job ends, no worker
  # can be made and none is running.
  capped 2 $fl "${fixture[@]}" run "$work/three.toml" --out "$runs/nofork" "${three[@]}" >"$work/nofork.log" 2>&1 &
  pid=$!
  began "$runs/nofork" 1
  take_a_place
  wait $pid
  status=$?
  pkill -P $sleeper
  kill $sleeper 2>/dev/null
  wait $sleeper 2>/dev/null
  check "no worker could be made and none ran: exit 1 (got $status)" test "$status" -eq 1
  check "... saying why" grep -qE "2 job\(s\) not started: cannot start a worker process \(fork: Resource temporarily unavailable; the limit on processes" "$work/nofork.log"
  check "... after finishing the job it had" test "$(ls "$runs"/nofork/jobs/*/done 2>/dev/null | wc -l)" -eq 1
  check "... and writing summary.csv" grep -q "train.loss" "$runs/nofork/summary.csv"
  check "... and leaving no process" none_left "$runs/nofork"
else
  echo "note: fork failure not tested (needs root, for a pids cgroup or the user nobody's process limit)"
fi

# The disk fills up while a job crashes: the parent cannot write the crashed job's summary.json. That
# job fails with both reasons in the log; the other job, supervised all along, finishes; exit 1.
# A small tmpfs in a mount namespace of its own (root, or an unprivileged user namespace).
if [[ $(id -u) -eq 0 ]] && unshare -m true 2>/dev/null; then
  namespace=(unshare -m)
elif unshare -rm true 2>/dev/null; then
  namespace=(unshare -rm)
else
  namespace=()
fi
if [[ ${#namespace[@]} -gt 0 ]]; then
  crash_pipeline "$work/crash2.toml" none segfault
  mkdir "$work/disk"
  cat >"$work/full-disk.sh" <<'EOF'
fl=$1 pipeline=$2 disk=$3 work=$4
mount -t tmpfs -o size=1m tmpfs "$disk" || exit 90
# The segfault job crashes at forward call 600000, about half way through the other's 1.2M steps.
"$fl" --plugin-path "$FIXTURE_DIR/fixture" run "$pipeline" --out "$disk/run" --set train.steps=1200000 --set train.eval_every=10000000 \
  --set model.at_call=600000 --job-timeout 60 --jobs 2 >"$work/full-disk.log" 2>&1 &
pid=$!
# Once both jobs have written their step-0 metrics (the next come at their end), fill the disk.
for _ in $(seq 1 600); do
  [[ $(find "$disk/run/jobs" -name metrics.jsonl -size +0 2>/dev/null | wc -l) -ge 2 ]] && break
  sleep 0.01
done
dd if=/dev/zero of="$disk/filler" bs=64k 2>/dev/null
# A job reserves its summary.json's space when it starts (so a disk it fills still records why it
# failed); give the crashing job's reservation to the filler, so the parent's own write of its summary
# is the one that meets the full disk (cut, not removed: the worker holds it open until it dies).
truncate -s 0 "$disk"/run/jobs/0001-*/summary.json.tmp
dd if=/dev/zero of="$disk/filler2" bs=4k 2>/dev/null
for _ in $(seq 1 600); do
  grep -q "could not be written" "$work/full-disk.log" && break
  sleep 0.02
done
rm -f "$disk/filler" "$disk/filler2"
wait $pid
echo $? >"$work/full-disk.status"
cp -r "$disk/run" "$work/full-disk-run"
EOF
  FIXTURE_DIR=$FIXTURE_DIR "${namespace[@]}" bash "$work/full-disk.sh" "$fl" "$work/crash2.toml" "$work/disk" "$work"
  status=$(cat "$work/full-disk.status" 2>/dev/null)
  check "disk full: the run ended with exit 1 (got $status)" test "$status" = 1
  check "disk full: the crash and the failed write are both in the log" \
    grep -qE "model.mode=segfault failed: crashed: Segmentation fault.*; its summary.json could not be written either: .*(disk full|No space)" "$work/full-disk.log"
  check "disk full: the other job finished ok" grep -q '"status": "ok"' "$work"/full-disk-run/jobs/0000-*/summary.json
  check "disk full: no process is left" none_left "$work/disk/run"
else
  echo "note: disk-full case not tested (needs root or unprivileged user namespaces to mount a small tmpfs)"
fi

finish
