#!/usr/bin/env bash
# Stopping a run by a signal: Ctrl-C at a terminal (SIGINT to the whole process group), SIGTERM
# (kill, scancel, preemption; to the group or to the parent alone) and SIGHUP (a closed ssh
# session) let the running jobs finish their step; they are marked interrupted, summary.csv is
# written, the run exits 128 + the signal, no process of it is left, and --resume completes it with
# results byte-identical to an uninterrupted run. A second signal of the same kind ends it at once.
source "$(dirname "$0")/lib.sh"
fl=$FEATURELAB
xor=$SOURCE_DIR/tests/data/xor-small.toml
# Steps of about 50 ms (100k samples, width 500): a signal lands mid-step, where a worker killed by
# it would fail instead of finishing its step. 2 jobs of 2 s.
slow=(--set data.train=100000 --set data.test=1000 --set model.width=500 --set train.steps=40
      --set train.eval_every=20 --set 'experiment.seeds=[0, 1]')

$fl run "$xor" --out "$work/clean" "${slow[@]}" --jobs 2 -q >/dev/null 2>&1
check "the uninterrupted run finished its 2 jobs" test "$(ls "$work"/clean/jobs/*/done | wc -l)" -eq 2

all_interrupted() {  # all_interrupted DIR: every job's summary.json says interrupted
  local count
  count=$(grep -l '"status": "interrupted"' "$1"/jobs/*/summary.json 2>/dev/null | wc -l)
  [[ $count -eq 2 ]] || { grep -h '"status"\|"error"' "$1"/jobs/*/summary.json; return 1; }
}

# stop_case NAME SIGNAL WHOM CODE: the run in a session of its own (as a terminal or a batch
# job holds it), signalled in its process group or in the parent alone.
stop_case() {
  local name=$1 signal=$2 whom=$3 code=$4 out="$work/$1"
  setsid $fl run "$xor" --out "$out" "${slow[@]}" --jobs 2 -q >"$work/$name.log" 2>&1 &
  local pid=$!
  check "$name: the jobs began" began "$out" 2
  sleep 0.3
  if [[ $whom == group ]]; then kill -"$signal" -- -"$pid"; else kill -"$signal" "$pid"; fi
  wait "$pid"
  local status=$?
  check "$name: exits $code (got $status)" test "$status" -eq "$code"
  check "$name: every running job finished its step and is marked interrupted" all_interrupted "$out"
  check "$name: no done marker" bash -c "! ls '$out'/jobs/*/done 2>/dev/null | grep -q ."
  check "$name: summary.csv is written" test -f "$out/summary.csv"
  check "$name: no process of the run is left" none_left "$out" "$pid"
  expect 0 "" -- $fl run "$xor" --out "$out" "${slow[@]}" --jobs 2 --resume -q
  for d in "$work"/clean/jobs/*/; do
    check "$name: resumed job $(basename "$d") equals the uninterrupted run" cmp -s "$d/metrics.jsonl" "$out/jobs/$(basename "$d")/metrics.jsonl"
  done
}
stop_case ctrl-c INT group 130
stop_case term-group TERM group 143
stop_case term-parent TERM parent 143
stop_case hangup HUP group 129

# A second SIGTERM does not wait for the step: the run ends at once, its workers with it.
setsid $fl run "$xor" --out "$work/twice" "${slow[@]}" --jobs 2 -q >/dev/null 2>&1 &
pid=$!
check "twice: the jobs began" began "$work/twice" 2
kill -TERM "$pid"
sleep 0.01
kill -TERM "$pid"
wait "$pid"
status=$?
check "a second SIGTERM terminates (got $status)" test "$status" -eq 143
check "twice: no process of the run is left" none_left "$work/twice" "$pid"

finish
