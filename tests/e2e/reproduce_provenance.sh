#!/usr/bin/env bash
# make reproduce's results prove where they came from (scripts/reproduce.sh on a pack of one small pipeline, in a
# git repository of its own): a clean commit is named; --keep-finished keeps finished pipelines and resumes an
# interrupted one; a tree with uncommitted changes to a pipeline is refused,
# or, with --allow-dirty, run and marked in bold with the changes' hash; documentation edits do not count; a
# section whose assertions `featurelab collect` re-evaluated says so; a metric with no step-0 value is reported
# as missing there, not as failing at initialisation.
source "$(dirname "$0")/lib.sh"
fl=$FEATURELAB
build=$(cd "$(dirname "$fl")/.." && pwd)
repo=$work/repo
mkdir -p "$repo/scripts" "$repo/plugins/mini/pipelines"
cp "$SOURCE_DIR/scripts/reproduce.sh" "$SOURCE_DIR/scripts/reproduce.jq" "$repo/scripts/"
cp "$SOURCE_DIR/tests/data/sweep.toml" "$repo/plugins/mini/pipelines/sweep.toml"
echo "# mini" >"$repo/plugins/mini/README.md"
echo "runs/" >"$repo/.gitignore"
git -C "$repo" init -q
git -C "$repo" -c user.name=test -c user.email=test@example.org add -A
git -C "$repo" -c user.name=test -c user.email=test@example.org commit -qm "a pack of one pipeline"
commit=$(git -C "$repo" rev-parse --short HEAD)
results=$repo/plugins/mini/RESULTS.md
reproduce() { bash "$repo/scripts/reproduce.sh" --build "$build" --jobs 2 "$@"; }

expect 0 "wrote plugins/mini/RESULTS.md" -- reproduce mini
check "a clean tree: RESULTS.md names the commit ($commit)" grep -q "at commit \`$commit\`" "$results"
check "... and says nothing of uncommitted changes" bash -c "! grep -q 'uncommitted' '$results'"
check "... and the kernel the products ran on" grep -qE "products on (eigen|blis-serial)\)" "$results"

echo "# edited" >>"$repo/plugins/mini/README.md"
expect 0 "wrote plugins/mini/RESULTS.md" -- reproduce mini
check "an edit of documentation alone is not an uncommitted change to the code" bash -c "! grep -q 'uncommitted' '$results'"

sed -i 's/^lr = 0.1$/lr = 0.2/' "$repo/plugins/mini/pipelines/sweep.toml"
expect 2 "uncommitted changes.*no commit would reproduce" -- reproduce mini
expect 2 "plugins/mini/pipelines/sweep.toml" -- reproduce mini
expect 2 "--allow-dirty" -- reproduce mini
check "the refused run left the previous results as they were" bash -c "! grep -q 'uncommitted' '$results'"
touch "$repo/plugins/mini/pipelines/extra.toml.orig"
expect 2 "extra.toml.orig" -- reproduce mini
rm "$repo/plugins/mini/pipelines/extra.toml.orig"

expect 0 "wrote plugins/mini/RESULTS.md" -- reproduce --allow-dirty mini
check "--allow-dirty: the section says so in bold, with the changes' sha256" \
  grep -qE "at commit \`$commit\` \*\*with uncommitted changes \(sha256 \`[0-9a-f]{16}\`\): no commit reproduces it exactly\*\*" "$results"
check "... and so does the page's header" grep -q "(a tree with uncommitted changes)" "$results"
git -C "$repo" checkout -q -- plugins/mini/pipelines/sweep.toml

# --keep-finished: a pipeline finished at this commit is kept, not rerun; after a new commit it runs again.
# (The run there now was made with --allow-dirty: not kept.)
expect 0 "featurelab run plugins/mini/pipelines/sweep.toml" -- reproduce --keep-finished mini
stamp=$(stat -c %Y "$repo/runs/reproduce/mini/sweep/reproduce.json")
sleep 1
expect 0 "sweep: kept, finished .* at commit $commit" -- reproduce --keep-finished mini
check "--keep-finished: the finished run is not rerun" test "$(stat -c %Y "$repo/runs/reproduce/mini/sweep/reproduce.json")" = "$stamp"
git -C "$repo" -c user.name=test -c user.email=test@example.org commit -qm "a second commit" --allow-empty
expect 0 "featurelab run" -- reproduce --keep-finished mini
check "... and after a new commit it runs again" test "$(stat -c %Y "$repo/runs/reproduce/mini/sweep/reproduce.json")" != "$stamp"
commit=$(git -C "$repo" rev-parse --short HEAD)

# --keep-finished after an interruption (a run killed before its record: reproduce.json missing, a job not done):
# the finished jobs are kept, the others rerun, and RESULTS.md says so. Without it the pipeline starts afresh.
run=$repo/runs/reproduce/mini/sweep
rm "$run/reproduce.json" "$(ls -d "$run"/jobs/0001-*)/done"
kept=$(ls -d "$run"/jobs/0000-*)/metrics.jsonl
stamp=$(stat -c %Y "$kept")
sleep 1
expect 0 "sweep: resumed, 3 job\(s\) finished before it was interrupted at commit $commit" -- reproduce --keep-finished mini
check "the interrupted pipeline kept its finished jobs" test "$(stat -c %Y "$kept")" = "$stamp"
check "... reran the unfinished one" test -f "$(ls -d "$run"/jobs/0001-*)/done"
check "... and RESULTS.md says how many had finished" grep -q "resumed after an interruption: 3 of the jobs had finished before" "$results"
rm "$run/reproduce.json" "$(ls -d "$run"/jobs/0001-*)/done"
expect 0 "" -- reproduce mini
check "without --keep-finished an interrupted pipeline starts from an empty directory" test "$(stat -c %Y "$kept")" != "$stamp"
check "... and RESULTS.md says nothing of a resumption" bash -c "! grep -q 'resumed after an interruption' '$results'"

# The assertions edited after the run (collect reads them from the first job's config.toml) and re-evaluated on
# its jobs; train.loss has no value at step 0.
expect 0 "" -- reproduce mini
cat >>"$(ls -d "$run"/jobs/0000-*)/config.toml" <<'EOF'

[[assert]]
expect = "train.loss <= 10"
control = "model.width=8"
EOF
sleep 1  # asserts.json must be newer than the run's record, to the second
expect 1 "" -- $fl collect "$run" -q
expect 0 "wrote plugins/mini/RESULTS.md" -- reproduce --results-only mini
check "a re-checked section says it was not rerun, with the run's commit" \
  grep -q "Re-checked, not rerun:.*featurelab collect.*the jobs ran at commit \`$commit\`" "$results"
check "a metric with no step-0 value is missing at initialisation, not failing there" \
  grep -qE "train.loss <= 10.*\| missing: train.loss has no value at step (0|init)" "$results"

# scripts/compare_reproduce_times.py: a pack's wall times between a committed RESULTS.md and a fresh one.
cp "$SOURCE_DIR/scripts/compare_reproduce_times.py" "$repo/scripts/"
git -C "$repo" -c user.name=test -c user.email=test@example.org add -A
git -C "$repo" -c user.name=test -c user.email=test@example.org commit -qm "the comparison"
expect 0 "" -- reproduce mini
git -C "$repo" -c user.name=test -c user.email=test@example.org add -A
git -C "$repo" -c user.name=test -c user.email=test@example.org commit -qm "results"
before=$(git -C "$repo" rev-parse --short HEAD)
expect 0 "" -- reproduce mini
compare() { (cd "$repo" && python3 scripts/compare_reproduce_times.py "$@"); }
expect 0 "\| sweep \| [0-9.]+ s \| [0-9.]+ s \| [0-9.]+ \| same \|" -- compare --markdown --before "$before" --after-file plugins/mini/RESULTS.md mini
expect 0 "total.*1 like for like" -- compare --markdown --before "$before" --after-file plugins/mini/RESULTS.md mini
sed -i 's/^lr = 0.1$/lr = 0.2/' "$repo/plugins/mini/pipelines/sweep.toml"
git -C "$repo" -c user.name=test -c user.email=test@example.org commit -qam "another learning rate"
expect 0 "" -- reproduce mini
expect 0 "\| sweep \|.*\| changed \|" -- compare --markdown --before "$before" --after-file plugins/mini/RESULTS.md mini
expect 2 "no pack 'nothing'|nothing" -- compare --before "$before" --after-file plugins/mini/RESULTS.md nothing
expect 2 "no-such-revision" -- compare --before no-such-revision --after-file plugins/mini/RESULTS.md mini

echo "$checks checks, $failures failures"
[[ $failures -eq 0 ]]
