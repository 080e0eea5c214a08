#!/usr/bin/env bash
# One writer per run directory and per job: a second `run` (or --prepare, or a `job`) into a
# directory a run is writing is refused with exit 75 naming the holder, and the first finishes
# intact; `job` runs of one prepared directory go side by side, but one job runs once at a time.
# Without the lock a run started later reopened the jobs another finished meanwhile and, killed,
# left them destroyed.
source "$(dirname "$0")/lib.sh"
fl=$FEATURELAB
sweep=$SOURCE_DIR/tests/data/sweep.toml
xor=$SOURCE_DIR/tests/data/xor-small.toml
settings=(--set train.steps=100000 --set train.eval_every=1000)   # 4 jobs of about 1 s

all_done() {  # all_done DIR N: N jobs finished, each with a whole summary saying ok
  [[ $(ls "$1"/jobs/*/done 2>/dev/null | wc -l) -eq $2 ]] && \
    [[ $(grep -l '"status": "ok"' "$1"/jobs/*/summary.json | wc -l) -eq $2 ]]
}

# A second run into a directory in use.
$fl run "$sweep" --out "$work/first" "${settings[@]}" --jobs 1 -q >/dev/null 2>&1 &
first=$!
check "the first run began" began "$work/first" 1
expect 75 "first: the run directory is in use by another featurelab process \(pid $first\); wait for it to end" -- \
  $fl run "$sweep" --out "$work/first" "${settings[@]}" --jobs 1
expect 75 "in use by another featurelab process" -- $fl run "$sweep" --out "$work/first" "${settings[@]}" --prepare
expect 75 "in use by another featurelab process" -- $fl job "$work/first" --index 3
wait $first
status=$?
check "the first run finished (exit $status)" test $status -eq 0
check "the first run's 4 jobs are done and ok" all_done "$work/first" 4
expect 0 "4 already done" -- $fl run "$sweep" --out "$work/first" "${settings[@]}"

# Two runs started together into a new directory: one runs, the other is told it is busy.
$fl run "$sweep" --out "$work/together" "${settings[@]}" --jobs 1 -q >"$work/together-a.log" 2>&1 &
a=$!
$fl run "$sweep" --out "$work/together" "${settings[@]}" --jobs 1 -q >"$work/together-b.log" 2>&1 &
b=$!
wait $a
status_a=$?
wait $b
status_b=$?
check "of two runs started together one ran and one was busy ($status_a, $status_b)" \
  bash -c "[[ '$status_a $status_b' == '0 75' || '$status_a $status_b' == '75 0' ]]"
check "the busy one said so" grep -qh "in use by another featurelab process" "$work/together-a.log" "$work/together-b.log"

# A run stopped while it holds the directory (another node, a paused terminal), then continued:
# a second run meanwhile is refused instead of finishing jobs the first then reopens and destroys.
setsid $fl run "$sweep" --out "$work/lagging" "${settings[@]}" --jobs 1 -q >/dev/null 2>&1 &
lagging=$!
check "the lagging run began" began "$work/lagging" 1
kill -STOP "$lagging"
expect 75 "in use by another featurelab process \(pid $lagging\)" -- $fl run "$sweep" --out "$work/lagging" "${settings[@]}"
kill -CONT "$lagging"
wait $lagging
check "the lagging run finished its 4 jobs intact" all_done "$work/lagging" 4
for d in "$work"/first/jobs/*/; do
  check "job $(basename "$d") equals the first run's" cmp -s "$d/metrics.jsonl" "$work/lagging/jobs/$(basename "$d")/metrics.jsonl"
done

# A run directory removed under a running sweep: the run stops its jobs, starts no other, writes
# nothing more (where it used to make the directory again, half, and call jobs without metrics ok)
# and says why, exit 1.
$fl run "$sweep" --out "$work/removed" "${settings[@]}" --jobs 2 -q >"$work/removed.log" 2>&1 &
removed=$!
check "the run to be removed began" began "$work/removed" 2
rm -rf "$work/removed" 2>/dev/null
wait $removed
status=$?
check "a removed run directory ends the run with exit 1 (got $status)" test $status -eq 1
check "it says the directory was removed" grep -q "removed was removed during the run.*no other was started" "$work/removed.log"
check "it wrote no summary.csv there" test ! -e "$work/removed/summary.csv"
check "no process of the removed run is left" none_left "$work/removed"

# `featurelab job`: one job runs once at a time (a second process for it waits for the first, then finds
# it done: a duplicate array task); other jobs of the run go side by side; a `run` into the directory
# waits for none of them but is refused while they run. Jobs of about 4 s: job 0 must outlast four process
# starts (at 40 steps it finished in 0.7 s on a fast CI machine, before the `run` meant to be refused).
slow=(--set data.train=100000 --set data.test=1000 --set model.width=500 --set train.steps=600
      --set 'experiment.seeds=[0, 1]')
expect 0 "prepared" -- $fl run "$xor" --out "$work/prep" "${slow[@]}" --prepare
$fl job "$work/prep" --index 0 -q >"$work/job0.log" 2>&1 &
job0=$!
check "job 0 began" began "$work/prep" 1
expect 0 "2 job\(s\), 0 ok, 0 failed, 0 interrupted, 1 running, 1 unfinished" -- $fl status "$work/prep"
expect 0 "^1$" -- $fl status "$work/prep" --missing
$fl job "$work/prep" --index 0 >"$work/job0-again.log" 2>&1 &
again=$!
expect 75 "prep: the run directory is in use" -- $fl run "$xor" --out "$work/prep" "${slow[@]}"
expect 0 "job 1 done" -- $fl job "$work/prep" --index 1
wait $again
status=$?
check "a second process for job 0 waited for the first (exit $status), naming it" \
  bash -c "[[ $status -eq 0 ]] && grep -q 'job 0 is being run by another featurelab process (pid $job0); waiting for it' '$work/job0-again.log'"
check "then found it done and ran nothing" grep -q "job 0 is already done" "$work/job0-again.log"
wait $job0
status=$?
check "job 0 finished (exit $status)" test $status -eq 0
check "both jobs are done and ok" all_done "$work/prep" 2
expect 0 "job 0 is already done" -- $fl job "$work/prep" --index 0

# Two `job` processes with overlapping lists in opposite orders (two array tasks, a requeued one): each runs the
# free jobs, puts off the busy ones and never waits while holding a lock, so neither waits for the other for ever
# (timeout's 124), and every job runs exactly once. Ten tries: the deadlock this replaces came within six.
for try in $(seq 1 10); do
  expect 0 "prepared" -- $fl run "$sweep" --out "$work/pair$try" --set 'experiment.seeds=[0, 1, 2, 3]' --prepare
  timeout 60 $fl job "$work/pair$try" --indices 0-7 --jobs 1 >"$work/pair$try-a.log" 2>&1 &
  a=$!
  timeout 60 $fl job "$work/pair$try" --indices 7,6,5,4,3,2,1,0 --jobs 1 >"$work/pair$try-b.log" 2>&1 &
  b=$!
  wait $a; status_a=$?
  wait $b; status_b=$?
  check "try $try: both job processes finished ($status_a, $status_b)" test "$status_a $status_b" = "0 0"
  check "try $try: every job ran once" test "$(cat "$work/pair$try"-[ab].log | grep -c 'job [0-7] done')" -eq 8
  check "try $try: and is done and ok" all_done "$work/pair$try" 8
done

# A job directory swapped for a link to a finished job's directory: the job fails, naming the link, and writes
# nothing through it; the finished job stays byte for byte as it was, and no reader counts it twice.
$fl run "$sweep" --out "$work/swapped" "${settings[@]}" --jobs 1 >"$work/swapped.log" 2>&1 &
swapped=$!
for _ in $(seq 1 600); do ls "$work"/swapped/jobs/0000-*/done >/dev/null 2>&1 && break; sleep 0.05; done
first=$(ls -d "$work"/swapped/jobs/0000-*)
before=$(cat "$first"/* | sha256sum)
link=$work/swapped/jobs/$(jq -r '.jobs[3].dir' "$work/swapped/run.json")
rm -rf "$link" && ln -s "$first" "$link"
wait $swapped
status=$?
check "the run with a swapped job directory exits 1 (got $status)" test $status -eq 1
check "job 3 failed, naming the link" grep -q "#3 .*failed: its directory .*0003-.* was replaced by a symbolic link to .*0000-" "$work/swapped.log"
check "the finished job 0 is byte for byte as it was" test "$(cat "$first"/* | sha256sum)" = "$before"
check "summary.csv counts width 40 from job 2 alone (n = 1)" grep -q '^1,40,accuracy.test,1,' "$work/swapped/summary.csv"
expect 0 "" -- $fl export "$work/swapped" --out "$work/swapped-export"
check "export takes job 0's final values once (3 jobs' accuracy.test)" \
  test "$(grep -c ',accuracy.test,' "$work/swapped-export/final.csv")" -eq 3

finish
