#!/usr/bin/env bash
# featurelab diff: two runs of one pipeline that differ in a --set and a sweep axis, their jobs, and bad sides.
source "$(dirname "$0")/lib.sh"
fl=$FEATURELAB
sweep=$SOURCE_DIR/tests/data/sweep.toml
quick=(--set train.steps=20 --set 'experiment.seeds=[0]' -q)

expect 0 "" -- $fl run "$sweep" "${quick[@]}" --out "$work/a"
expect 0 "" -- $fl run "$sweep" "${quick[@]}" --set optimizer.lr=0.05 --set 'sweep.model.width=[8, 40, 80]' --out "$work/b"

expect 0 "0 of [0-9]+ key\(s\) differ" -- $fl diff "$work/a" "$work/a"
expect 1 "2 of [0-9]+ key\(s\) differ" -- $fl diff "$work/a" "$work/b"
out=$($fl diff "$work/a" "$work/b")
check "the learning rate, in its shortest form" grep -qE '^  optimizer\.lr +0\.1  →  0\.05$' <<<"$out"
check "the sweep axis, as lists" grep -qE '^  \[sweep\] model\.width +\[8, 40\]  →  \[8, 40, 80\]$' <<<"$out"
check "each side named with its job count" grep -q "^run $work/b (3 jobs)$" <<<"$out"

# Jobs: the width each ran with; a job and a config.toml file side by side.
job_a=$(ls -d "$work"/a/jobs/0001-*) job_b=$(ls -d "$work"/b/jobs/0002-*)
expect 1 "model\.width +40  →  80" -- $fl diff "$job_a" "$job_b"
expect 0 "^job .*\$" -- $fl diff "$job_a" "$job_a/config.toml"

# Bad sides: named, exit 2.
expect 2 "nowhere does not exist" -- $fl diff "$work/a" "$work/nowhere"
mkdir "$work/empty"
expect 2 "empty is a directory without run.json or config.toml" -- $fl diff "$work/a" "$work/empty"
printf '[model]\nwidth = = 3\n' >"$work/broken.toml"
expect 2 "broken.toml:2:" -- $fl diff "$work/a" "$work/broken.toml"

finish
