#!/usr/bin/env bash
# [search]: random points planned as sweep points. Every drawn value lies in its range (integers whole, log-uniform
# between its bounds, choices from the list), no point twice; the same seed draws the same points (the same job ids:
# a second run resumes them all), another seed others; crossed with [sweep]; the searched keys are export's columns;
# a space smaller than the budget, a misspelt distribution and a key no component takes are refused where written.
source "$(dirname "$0")/lib.sh"
fl=$FEATURELAB
# sweep.toml's pipeline without its sweep and assertions, one seed, 20 steps.
sed '/^\[sweep\]/,$d' "$SOURCE_DIR/tests/data/sweep.toml" | sed 's/^seeds = .*/seeds = [0]/; s/^steps = .*/steps = 20/' >"$work/base.toml"
cat "$work/base.toml" - >"$work/search.toml" <<'TOML'
[search]
budget = 8
seed = 3
"optimizer.lr" = { log-uniform = [1e-3, 1.0] }
"model.width" = { int = [4, 64] }
model.activation = { choice = ["relu", "tanh"] }
"model.init_scale" = { uniform = [0.01, 0.05] }
TOML
expect 0 "8 job\(s\): 8 ok" -- $fl run "$work/search.toml" --out "$work/run"
check "8 points, each value in its range, no point twice" jq -e '
  [.jobs[] | .assignments | map({(.[0]): (.[1] | fromjson)}) | add] as $p |
  ($p | length) == 8 and ($p | unique | length) == 8 and
  all($p[]; .["optimizer.lr"] >= 0.001 and .["optimizer.lr"] < 1 and (.["model.width"] | . == floor and . >= 4 and . <= 64)
    and (.["model.activation"] == "relu" or .["model.activation"] == "tanh")
    and .["model.init_scale"] >= 0.01 and .["model.init_scale"] < 0.05)' "$work/run/run.json"
check "run.json marks the search's axes" jq -e '[.axes[] | select(.search)] | length == 4' "$work/run/run.json"
expect 0 "8 job\(s\) .*8 already done" -- $fl run "$work/search.toml" --out "$work/run"
expect 0 "" -- $fl run "$work/search.toml" --out "$work/other" --set search.seed=4 -q
check "another seed draws other points" bash -c "! cmp -s <(jq -c '[.jobs[].id]' '$work/run/run.json') <(jq -c '[.jobs[].id]' '$work/other/run.json')"
expect 0 "" -- $fl export "$work/run" --out "$work/export" -q
check "the searched keys are export's columns" \
  test "$(head -1 "$work/export/final.csv")" = "run,job,job_id,seed,point,status,model.activation,model.init_scale,model.width,optimizer.lr,metric,value,source"
# Crossed with a grid: 2 learning rates × 3 drawn widths.
cat "$work/base.toml" - >"$work/crossed.toml" <<'TOML'
[sweep]
"optimizer.lr" = [0.05, 0.2]
[search]
budget = 3
"model.width" = { int = [4, 64] }
TOML
expect 0 "ok \(6 job\(s\): 6 sweep point\(s\) × 1 seed\(s\)" -- $fl validate "$work/crossed.toml"
expect 2 "search: 500 draws found 2 distinct points of the budget's 5; the space holds fewer" -- \
  $fl validate "$work/crossed.toml" --set search.budget=5 --set 'search."model.width"={ int = [4, 5] }'
expect 2 "--set search.\"model.width\": search.model.width: 'integer' is not a distribution of the search" -- \
  $fl validate "$work/crossed.toml" --set 'search."model.width"={ integer = [4, 5] }'
expect 2 "model.widht: unknown parameter of model 'two-layer'; did you mean 'width'" -- \
  $fl validate "$work/crossed.toml" --set 'search."model.widht"={ int = [4, 64] }'
expect 2 "sweep.optimizer.lr: this axis is written twice" -- \
  $fl validate "$work/crossed.toml" --set 'search."optimizer.lr"={ log-uniform = [0.01, 1.0] }'

# Pruning: [prune]'s median rule stops a job whose accuracy at an evaluation is below the median of the other jobs'
# there. One job at a time, so which jobs have reached a step, hence every decision, is the same each time.
sed 's/^steps = .*/steps = 60/; s/^eval_every = .*/eval_every = 10/' "$work/base.toml" - >"$work/prune.toml" <<'TOML'
[search]
budget = 10
seed = 2
"optimizer.lr" = { log-uniform = [1e-4, 1.0] }
[prune]
metric = "accuracy.test"
after = 20
min_jobs = 2
TOML
expect 0 "10 job\(s\): [1-9][0-9]* ok, [1-9][0-9]* pruned, 0 not ok" -- $fl run "$work/prune.toml" --out "$work/pruned" --jobs 1
check "each pruned job: done, its metrics kept up to the step it was pruned at, below the median of the jobs before it" \
  bash -c "cd '$work/pruned' && n=0 && for s in jobs/*/summary.json; do
    [[ \$(jq -r .status \$s) == pruned ]] || continue; n=\$((n + 1)); d=\$(dirname \$s); test -e \$d/done || exit 1
    step=\$(jq -r .steps \$s); mine=\$(jq -s -r --argjson t \$step 'map(select(.metric == \"accuracy.test\" and .step == \$t)) | .[0].value' \$d/metrics.jsonl)
    [[ \$(jq -s 'map(.step) | max' \$d/metrics.jsonl) == \$step ]] || exit 1
    others=\$(for o in jobs/*; do [[ \$o < \$d ]] && jq -s -r --argjson t \$step 'map(select(.metric == \"accuracy.test\" and .step == \$t)) | .[0].value // empty' \$o/metrics.jsonl; done | sort -g)
    median=\$(echo \"\$others\" | awk '{ v[NR] = \$1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }')
    awk -v a=\$mine -v b=\$median 'BEGIN { exit !(a < b) }' || exit 1
    jq -e '.pruned | test(\"below the median\")' \$s >/dev/null || exit 1
  done; (( n > 0 ))"
expect 0 "10 already done" -- $fl run "$work/prune.toml" --out "$work/pruned" --jobs 1
expect 0 "[1-9][0-9]* pruned" -- $fl status "$work/pruned"
expect 0 "" -- $fl status "$work/pruned" --missing
check "status --missing lists no pruned job" test -z "$($fl status "$work/pruned" --missing)"
expect 2 "prune.metric: expected a probe's metric, \"<probe name>.<metric>\" \(probes: accuracy, neuron-feature-cosine, robust-accuracy\)" -- \
  $fl validate "$work/prune.toml" --set 'prune.metric="accuracy"'
expect 2 "prune.rule: unknown key" -- $fl validate "$work/prune.toml" --set 'prune.rule="median"'

echo "$checks checks, $failures failed"
[[ $failures -eq 0 ]]
