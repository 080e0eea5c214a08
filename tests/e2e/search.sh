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

echo "$checks checks, $failures failed"
[[ $failures -eq 0 ]]
