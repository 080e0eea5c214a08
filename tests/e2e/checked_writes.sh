#!/usr/bin/env bash
# Checked writes: a job whose metrics.jsonl cannot be written (a file size limit; with root, a
# disk that fills up during the job and is freed again) fails with the reason, never gets a done
# marker, and none of its values reach summary.csv; --resume then reruns it to the same bytes as an
# uninterrupted run. (Unchecked, a transient full disk gave an ok job with a torn metrics.jsonl
# missing most of its lines, and a summary.csv from the torn file that --resume kept.)
source "$(dirname "$0")/lib.sh"
fl=$FEATURELAB
xor=$SOURCE_DIR/tests/data/xor-small.toml
# About 100 KB of metrics in a fraction of a second. One worker, one thread: a job handed two threads
# on a busy machine can take many times longer.
settings=(--set train.steps=3000 --set train.eval_every=5 --jobs 1)

$fl run "$xor" --out "$work/clean" "${settings[@]}" -q >/dev/null 2>&1
check "the uninterrupted run finished" test -f "$work"/clean/jobs/0000-*/done

whole_metrics() {  # every line of $1 parses and the file ends in a newline
  python3 - "$1" <<'PY'
import json, sys
text = open(sys.argv[1]).read()
assert text == "" or text.endswith("\n"), "a partial last line"
for line in text.splitlines():
    json.loads(line)
PY
}
no_rows() {  # summary.csv holds its header and nothing else
  test "$(wc -l <"$1")" -eq 1
}
same_as_clean() {  # the run in $1 has the uninterrupted run's bytes
  local job
  job=$(basename "$work"/clean/jobs/0000-*)
  cmp -s "$work/clean/jobs/$job/metrics.jsonl" "$1/jobs/$job/metrics.jsonl" &&
    cmp -s "$work/clean/summary.csv" "$1/summary.csv"
}

# A file size limit (ulimit -f, in KiB): metrics.jsonl reaches it mid-job. The job fails naming the
# file and the reason, instead of dying of SIGXFSZ.
out=$work/fsize
(ulimit -f 32; exec $fl run "$xor" --out "$out" "${settings[@]}" -q) >"$work/fsize.log" 2>&1
check "file size limit: the run exits 1 (a job failed)" test $? -eq 1
check "file size limit: the job failed naming metrics.jsonl and the reason" \
  grep -q '"error": "cannot write .*metrics.jsonl: File too large' "$out"/jobs/0000-*/summary.json
check "file size limit: the run's log names it too" grep -q 'metrics.jsonl: File too large' "$work/fsize.log"
check "file size limit: no done marker" test ! -e "$out"/jobs/0000-*/done
check "file size limit: metrics.jsonl is cut back to whole lines" whole_metrics "$out"/jobs/0000-*/metrics.jsonl
check "file size limit: summary.csv reports nothing of the failed job" no_rows "$out/summary.csv"
expect 0 "" -- $fl run "$xor" --out "$out" "${settings[@]}" --resume -q
check "file size limit: --resume reruns the job to the uninterrupted run's bytes" same_as_clean "$out"

# A disk that fills up during the job and is freed again. The job's directory is a 200 KiB tmpfs
# (the run's own files stay on the normal disk); a filler leaves it 40 KiB, the job's metrics fill
# them, and the filler is removed as soon as df shows the disk full.
if [[ $(id -u) -ne 0 ]]; then
  echo "note: not root, so the full-disk part (a tmpfs mount) is skipped"
else
  out=$work/full
  $fl run "$xor" --out "$out" "${settings[@]}" --prepare -q >/dev/null 2>&1
  jobdir=$(echo "$out"/jobs/0000-*)
  mount -t tmpfs -o size=200k tmpfs "$jobdir"
  trap 'umount "$jobdir" 2>/dev/null; rm -rf "$work"' EXIT
  free_kib() { df -k "$jobdir" | awk 'NR==2 {print $4}'; }
  dd if=/dev/zero of="$jobdir/filler" bs=1k count=$(($(free_kib) - 40)) status=none
  $fl run "$xor" --out "$out" "${settings[@]}" --resume -q >"$work/full.log" 2>&1 &
  pid=$!
  # Freed once full, and once the job's next metrics page had no room: a job that went on after a
  # failed write would then write again, and finish. (df shows the disk full as soon as its last page
  # is taken, while the metrics file still has room in its own; the job fails at the next page, a
  # hundred steps later, and then ends at once: the wait is for the run to end, bounded.)
  for _ in $(seq 1 1000); do  # 10 s at most
    [[ $(free_kib) -eq 0 ]] && break
    kill -0 $pid 2>/dev/null || break
    sleep 0.01
  done
  for _ in $(seq 1 200); do  # 2 s at most
    kill -0 $pid 2>/dev/null || break
    sleep 0.01
  done
  rm -f "$jobdir/filler"
  wait $pid
  code=$?
  check "full disk: the run exits 1 (a job failed)" test $code -eq 1
  check "full disk: the job failed, naming the disk full and metrics.jsonl" \
    grep -q '"error": "disk full while writing .*metrics.jsonl: No space left on device' "$jobdir/summary.json"
  check "full disk: no done marker" test ! -e "$jobdir/done"
  check "full disk: metrics.jsonl is cut back to whole lines" whole_metrics "$jobdir/metrics.jsonl"
  check "full disk: summary.csv reports nothing of the failed job" no_rows "$out/summary.csv"
  check "full disk: no temporary file is left" test -z "$(ls "$jobdir" | grep '\.tmp$')"
  expect 0 "" -- $fl run "$xor" --out "$out" "${settings[@]}" --resume -q
  check "full disk: --resume reruns the job to the uninterrupted run's bytes" same_as_clean "$out"
  umount "$jobdir"
fi

finish
