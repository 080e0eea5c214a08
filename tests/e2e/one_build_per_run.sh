#!/usr/bin/env bash
# One run, one build of each plugin: the run pins each pack's SHA-256 before its first job and
# records it in manifest.json. A library replaced during a sweep (a rebuild: same size, same
# fingerprint, other bytes) fails the jobs that would load it afterwards, naming both hashes, and
# leaves the finished ones intact; a --resume with the new build is refused; the old build resumes.
source "$(dirname "$0")/lib.sh"
fl=$FEATURELAB

plug=$work/plug
mkdir -p "$plug"
cp "$FIXTURE_DIR"/fixture/libfixture.{so,featurelab.json} "$plug/"
cp "$plug/libfixture.so" "$work/first.so"
# The rebuild: one byte of the compiler note (.comment, never loaded) changed.
python3 - "$work/first.so" "$work/rebuilt.so" <<'PY'
import sys
data = bytearray(open(sys.argv[1], "rb").read())
at = data.find(b"GCC: (")
assert at >= 0, "no compiler note"
data[at + 6] ^= 1
open(sys.argv[2], "wb").write(data)
PY
install_build() {  # install_build FILE: replace the library atomically, as a build system does
  cp "$1" "$plug/libfixture.so.new" && chmod 644 "$plug/libfixture.so.new" && mv "$plug/libfixture.so.new" "$plug/libfixture.so"
}

cat >"$work/p.toml" <<'TOML'
[experiment]
name = "one-build"
seeds = [0, 1, 2, 3]
[data]
use = "xor-clusters"
dim = 2
train = 200
test = 100
[model]
use = "crash-model"
[loss]
use = "std:logistic"
[optimizer]
use = "gd"
lr = 0.05
[train]
steps = 100000       # about 0.6 s a job: the library is replaced long before the last ones start
eval_every = 20000
[[probe]]
use = "accuracy"
TOML
run=(--plugin-path "$plug" run "$work/p.toml" --jobs 1)

$fl "${run[@]}" --out "$work/r" >"$work/r.log" 2>&1 &
pid=$!
for _ in $(seq 1 3000); do
  ls "$work"/r/jobs/*/done >/dev/null 2>&1 && break
  sleep 0.01
done
first=$(ls -d "$work"/r/jobs/0000-*)
first_metrics=$(sha256sum <"$first/metrics.jsonl")
install_build "$work/rebuilt.so"
wait $pid
code=$?
checks=$((checks + 1)); [[ $code -eq 1 ]] || { echo "FAIL: the run exited $code, expected 1"; cat "$work/r.log"; failures=$((failures + 1)); }
check "manifest.json records the first build's sha256" \
  grep -q "\"sha256\": \"$(sha256sum <"$work/first.so" | cut -d' ' -f1)\"" "$work/r/manifest.json"
check "the first job finished with the first build" grep -q '"status": "ok"' "$first/summary.json"
check "the last job failed: the plugin changed during the run" \
  grep -q "plugin 'fixture' ($plug/libfixture.so) changed during the run (sha256 [0-9a-f]*\.\.\. at the start, [0-9a-f]*\.\.\. now).*another --out" \
  "$work"/r/jobs/0003-*/summary.json
for summary in "$work"/r/jobs/*/summary.json; do
  check "$summary: ok, or failed because the plugin changed" \
    grep -qE '"status": "ok"|changed during the run' "$summary"
done
check "the finished job is intact" test "$(sha256sum <"$first/metrics.jsonl")" = "$first_metrics"

# Resuming with the new build would mix two builds in one run: refused, the manifest left as it was.
cp "$work/r/manifest.json" "$work/manifest.before"
expect 3 "plugin 'fixture' .* is not the build this run started with \(sha256 [0-9a-f]+\.\.\. in .*manifest.json, [0-9a-f]+\.\.\. now\)" -- \
  $fl "${run[@]}" --out "$work/r" --resume
check "the refused resume left manifest.json as it was" cmp -s "$work/manifest.before" "$work/r/manifest.json"
# With the build it started with, it resumes and finishes.
install_build "$work/first.so"
expect 0 "" -- $fl "${run[@]}" --out "$work/r" --resume -q
check "every job is done" test "$(ls "$work"/r/jobs/*/done | wc -l)" -eq 4
check "the first job was kept" test "$(sha256sum <"$first/metrics.jsonl")" = "$first_metrics"

# The cluster path: each job of a prepared run loads the build manifest.json recorded.
expect 0 "" -- $fl "${run[@]}" --out "$work/p" --prepare --set train.steps=200 --save-params final -q
expect 0 "" -- $fl --plugin-path "$plug" job "$work/p" --index 0 -q
install_build "$work/rebuilt.so"
expect 1 "plugin 'fixture' .* changed during the run" -- $fl --plugin-path "$plug" job "$work/p" --index 1
check "the job's summary names the change" grep -q "changed during the run" "$work"/p/jobs/0001-*/summary.json
# eval measures saved parameters with the run's builds too, never silently with today's.
expect 1 "plugin 'fixture' .* changed during the run" -- $fl --plugin-path "$plug" eval "$work/p" --indices 0 --name again
install_build "$work/first.so"
expect 0 "" -- $fl --plugin-path "$plug" eval "$work/p" --indices 0 --name again -q
check "with the run's build, eval measures what the job measured" bash -c \
  "cd '$work'/p/jobs/0000-* && a='.final | with_entries(select(.key | startswith(\"accuracy\")))' && test -n \"\$(jq -c \"\$a\" summary.json | grep accuracy)\" && test \"\$(jq -c \"\$a\" summary.json)\" = \"\$(jq -c \"\$a\" eval/again/summary.json)\""
# eval has the job's time limit: a probe that does not return is killed at --job-timeout and its job named.
printf '[[probe]]\nuse = "slow-probe"\nseconds = 120\n' >"$work/slow.toml"
expect 1 "job 0: .*timed out after 2 s" -- timeout 60 $fl --plugin-path "$plug" eval "$work/p" --indices 0 --probes "$work/slow.toml" --job-timeout 2
finish
