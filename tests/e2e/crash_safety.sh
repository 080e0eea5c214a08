#!/usr/bin/env bash
# Crash safety: kill -9 of the parent (with its workers, as a machine crash) or of one worker, at
# several moments of a sweep. After every kill each file on disk is whole (summary.json and every
# metrics.jsonl line parse, a done marker only beside a whole summary), --resume completes the run,
# and every job's metrics are byte-identical to an uninterrupted run.
source "$(dirname "$0")/lib.sh"
fl=$FEATURELAB
# Six jobs of about a second each in any build, spent mostly in a probe that sleeps (tests/data/kill-sweep.toml),
# not in training: long enough for every kill point below to land mid-run, and the cores stay free for the tests
# that run beside this one.
sweep=$SOURCE_DIR/tests/data/kill-sweep.toml
export FEATURELAB_PLUGIN_PATH=$FIXTURE_DIR/fixture
settings=(--set 'experiment.seeds=[0, 1, 2]')

$fl run "$sweep" --out "$work/clean" "${settings[@]}" --jobs 2 -q >/dev/null 2>&1
check "the uninterrupted run finished its 6 jobs" test "$(ls "$work"/clean/jobs/*/done | wc -l)" -eq 6

whole_files() {  # every result file under $1 is whole
  local dir=$1
  python3 - "$dir" <<'PY'
import json, pathlib, sys
root = pathlib.Path(sys.argv[1])
for f in root.glob("jobs/*/summary.json"):
    json.loads(f.read_text())
for f in root.glob("jobs/*/metrics.jsonl"):
    text = f.read_text()
    assert text == "" or text.endswith("\n"), f"{f}: a partial last line"
    for line in text.splitlines():
        json.loads(line)
for done in root.glob("jobs/*/done"):
    assert (done.parent / "summary.json").exists(), f"{done}: done without summary.json"
for f in root.glob("summary.csv"):
    lines = f.read_text().splitlines()
    assert lines and all(l.count(",") == lines[0].count(",") for l in lines), f"{f}: ragged"
PY
}

# Kill points, by progress (not time, so that they land mid-run on any machine): after N jobs have
# finished and a running one has written at least one metrics line; then who dies.
wait_for() {  # wait_for DIR N: N done markers and a running job with metrics
  local dir=$1 n=$2
  for _ in $(seq 1 3000); do
    local done_count lines
    done_count=$(ls "$dir"/jobs/*/done 2>/dev/null | wc -l)
    lines=0
    for m in "$dir"/jobs/*/metrics.jsonl; do
      [[ -f $m && ! -f $(dirname "$m")/done ]] && [[ -s $m ]] && lines=1
    done
    [[ $done_count -ge $n && $lines -eq 1 ]] && return 0
    sleep 0.01
  done
  return 1
}
i=0
mid_run=0
for point in 0:parent 1:parent 3:parent 0:worker 2:worker 4:parent; do
  after=${point%%:*} victim=${point##*:}
  out="$work/kill$i"
  # Its own process group, so that one kill -9 takes the parent and every worker at once.
  setsid $fl run "$sweep" --out "$out" "${settings[@]}" --jobs 2 -q >/dev/null 2>&1 &
  pid=$!
  wait_for "$out" "$after"
  if [[ $victim == parent ]]; then
    kill -9 -- -$pid 2>/dev/null
  else
    worker=$(pgrep -n -P $pid)  # the newest worker: the one furthest from finishing
    check "kill $i: a worker was running after $after jobs" test -n "$worker"
    [[ -n $worker ]] && kill -9 "$worker"
  fi
  wait $pid 2>/dev/null
  sleep 0.2
  finished=$(ls "$out"/jobs/*/done 2>/dev/null | wc -l)
  echo "kill $i: $victim after $after finished jobs; $finished finished at the kill"
  if [[ $victim == parent ]]; then
    [[ $finished -lt 6 ]] && mid_run=$((mid_run + 1))
  else  # the parent went on: the killed worker's job is the one that failed
    grep -qs 'signal 9' "$out"/jobs/*/summary.json && mid_run=$((mid_run + 1))
    # Not featurelab's own kill (a time-out, --job-memory): the message says who else it may be.
    check "kill $i: the killed worker's job names the signal and the likely killers" \
      grep -qsE 'killed \(signal 9\) (by another process or the out-of-memory killer|.*out-of-memory killer)' "$out"/jobs/*/summary.json
  fi
  check "kill $i ($victim after $after jobs): every file is whole" whole_files "$out"
  expect 0 "" -- $fl run "$sweep" --out "$out" "${settings[@]}" --resume --jobs 2 -q
  check "kill $i: --resume finished all 6 jobs" test "$(ls "$out"/jobs/*/done | wc -l)" -eq 6
  for d in "$work"/clean/jobs/*/; do
    name=$(basename "$d")
    check "kill $i: job $name equals the uninterrupted run" cmp -s "$d/metrics.jsonl" "$out/jobs/$name/metrics.jsonl"
  done
  check "kill $i: summary.csv equals the uninterrupted run's" cmp -s "$work/clean/summary.csv" "$out/summary.csv"
  i=$((i + 1))
done
check "every kill landed mid-run ($mid_run of $i left unfinished jobs)" test "$mid_run" -eq "$i"

finish
