#!/usr/bin/env bash
# bench/reproduce_ab.sh, which times two builds on the same pipelines (bench/README.md, whole reproductions): the
# jobs it samples, both builds' times and B's time split per pipeline in times.tsv, the per-pack summary, and the
# refusals of a bad command line. The same build as A and B here: only the bookkeeping is under test.
source "$(dirname "$0")/lib.sh"
ab=$SOURCE_DIR/bench/reproduce_ab.sh
build=$(dirname "$(dirname "$FEATURELAB")")

expect 0 "^std +xor-network +3 jobs, +2 run: A +[0-9.]+ s +B +[0-9.]+ s +B/A ([1-9][0-9]*\.[0-9]+|0\.[0-9]*[1-9][0-9]*)$" -- \
  bash "$ab" --a "$build" --b "$build" --tree "$SOURCE_DIR" --pipeline xor-network --every 2 --jobs 1 --out "$work/ab" std
tsv=$work/ab/times.tsv
check "times.tsv has its header and one row" bash -c "[[ \$(wc -l <'$tsv') -eq 2 ]] && head -1 '$tsv' | grep -q '^pack	pipeline	jobs	sampled	a_s	b_s'"
check "jobs 0 and 2 ran on both sides, job 1 on neither" bash -c "
  for side in a b; do
    ls -d '$work'/ab/\$side/std/xor-network/jobs/0000-*/ >/dev/null && [[ -e \$(ls -d '$work'/ab/\$side/std/xor-network/jobs/0000-*)/done ]] || exit 1
    [[ -e \$(ls -d '$work'/ab/\$side/std/xor-network/jobs/0002-*)/done ]] || exit 1
    [[ ! -e \$(ls -d '$work'/ab/\$side/std/xor-network/jobs/0001-*)/done ]] || exit 1
  done"
check "the row: 3 jobs, 2 sampled, no failure, B's training time from the jobs' summaries" \
  bash -c "awk -F'\t' 'NR == 2 && \$3 == 3 && \$4 == 2 && \$7 == 0 && \$8 == 0 && \$10 > 0 && \$5 > 0 && \$6 > 0 { ok = 1 } END { exit !ok }' '$tsv'"
# At least --jobs jobs where the pipeline has them: a job alone would get every core, which a whole run never gives it.
expect 0 "xor-network +3 jobs, +3 run" -- bash "$ab" --a "$build" --b "$build" --tree "$SOURCE_DIR" --pipeline xor-network \
  --every 10 --jobs 2 --out "$work/ab2" std
# --args reaches both builds: one seed instead of three, every job run.
expect 0 "xor-network +1 jobs, +1 run" -- bash "$ab" --a "$build" --b "$build" --tree "$SOURCE_DIR" --pipeline xor-network \
  --every 1 --args "--set 'experiment.seeds=[0]'" --out "$work/ab1" std
expect 0 "^all .* 0 min 0[0-9] s" -- bash "$ab" --a "$build" --b "$build" --tree "$SOURCE_DIR" --pipeline xor-network \
  --every 1 --args "--set 'experiment.seeds=[0]'" --out "$work/ab1" std

# --summary: a later file's row replaces an earlier one's for the same pipeline; estimates scale by jobs / sampled.
header=$(head -1 "$tsv")
printf '%s\np\tx\t10\t2\t100\t50\t0\t0\t-\t-\t-\t-\np\ty\t4\t4\t20\t20\t0\t0\t1\t15\t4\t0\n' "$header" >"$work/one.tsv"
printf '%s\np\tx\t10\t2\t60\t30\t0\t0\t1\t25\t4\t0\n' "$header" >"$work/two.tsv"
expect 0 "^p +80 s +50 s +0.62 +5 min 20 s +2 min 50 s  2 / 40 / 8 / 0 s" -- bash "$ab" --summary "$work/one.tsv" "$work/two.tsv"
expect 2 "no times.tsv at" -- bash "$ab" --summary "$work/none.tsv"
expect 2 "give --a and --b" -- bash "$ab" --a "$build" --tree "$SOURCE_DIR" std
expect 2 "--every takes a positive count" -- bash "$ab" --a "$build" --b "$build" --tree "$SOURCE_DIR" --every 0 std
expect 2 "--tree must be a checkout with plugins/" -- bash "$ab" --a "$build" --b "$build" --tree "$work" std
expect 2 "could not prepare" -- bash "$ab" --a "$build" --b "$build" --tree "$SOURCE_DIR" --pipeline xor-network \
  --args "--set no.such=1" --out "$work/bad" std

echo "$checks checks, $failures failures"
[[ $failures -eq 0 ]]
