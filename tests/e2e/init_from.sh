#!/usr/bin/env bash
# Branching: [model] init_from starts a job from another job's saved parameters. A 2-width × 2-seed pretraining saves
# its weights; a job of 0 steps from them measures the pretraining's own final values, bit for bit; a sweep branches
# each arm from its point's job of the same seed; summary.json records the lineage; a source that lacks the seed, the
# point or the step is refused before any job runs, located at the pipeline's line; a changed file, or another
# model's, fails the job with the file and the reason.
source "$(dirname "$0")/lib.sh"
fl=$FEATURELAB
sweep=$SOURCE_DIR/tests/data/sweep.toml   # widths 8, 40 × seeds 0, 1; 60 steps

expect 0 "4 job\(s\): 4 ok" -- $fl run "$sweep" --out "$work/pre" --save-params final
# The fine-tuning pipeline: sweep.toml's data and model, no sweep of its own; arms say where each starts.
cat >"$work/branch.toml" <<TOML
[experiment]
name = "branch"
seeds = [0, 1]
[data]
use = "xor-clusters"
dim = 2
label_noise = 0.1
train = 300
test = 300
[model]
use = "two-layer"
width = 40
init_scale = 0.02
init_from = { run = "pre", point = "model.width=40" }
[loss]
use = "logistic"
[optimizer]
use = "gd"
lr = 0.1
[train]
steps = 0
eval_every = 20
[[probe]]
use = "accuracy"
[[sweep.arm]]
name = "narrow"
"model.width" = 8
"model.init_from.point" = "model.width=8"
[[sweep.arm]]
name = "wide"
TOML
expect 0 "4 job\(s\): 4 ok" -- $fl run "$work/branch.toml" --out "$work/branch"
# Each arm and seed from its own pretraining job: 0 steps measure the same weights on the same data.
for seed in 0 1; do
  for width in 8 40; do
    src=$(jq -r --argjson s $seed --arg w $width '.jobs[] | select(.seed == $s and .assignments[0][1] == $w) | .dir' "$work/pre/run.json")
    arm=$([[ $width == 8 ]] && echo narrow || echo wide)
    dst=$(jq -r --argjson s $seed --arg a "\"$arm\"" '.jobs[] | select(.seed == $s and .assignments[0][1] == $a) | .dir' "$work/branch/run.json")
    check "arm $arm, seed $seed: starts from pre's job $src (summary.json's init_from)" \
      test "$(jq -r .init_from.job "$work/branch/jobs/$dst/summary.json")" = "$work/pre/jobs/$src"
    check "arm $arm, seed $seed: its accuracy at step 0 is the pretraining's final, bit for bit" \
      test "$(jq -c '.final | {"accuracy.test", "accuracy.train"}' "$work/branch/jobs/$dst/summary.json")" = \
           "$(jq -c '.final | {"accuracy.test", "accuracy.train"}' "$work/pre/jobs/$src/summary.json")"
  done
done
job=$(ls -d "$work"/branch/jobs/0002-*)
check "the lineage: step, seed, job id and each file's sha256" bash -c "jq -e '.init_from | .step == 60 and .seed == 0 and
  (.job_id | length) == 16 and (.files | keys) == [\"step000060/W.npy\", \"step000060/a.npy\"]' '$job/summary.json' >/dev/null"
check "config.toml records the source with absolute paths" grep -q "^init_from = { point = 'model.width=40', run = '$work/pre' }" "$job/config.toml"

# Training goes on from there: 20 more steps of the wide arm take the loss below the pretraining's last (60 steps),
# where the same 20 steps from the random initialisation (the control) stay above it.
one=(--set train.steps=20 --set 'sweep.arm=[{name = "wide"}]' --set 'experiment.seeds=[0]')
expect 0 "1 job\(s\): 1 ok" -- $fl run "$work/branch.toml" --out "$work/more" "${one[@]}"
grep -v '^init_from = ' "$work/branch.toml" | sed 's/^"model.init_from.point" = .*//' >"$work/scratch.toml"
expect 0 "1 job\(s\): 1 ok" -- $fl run "$work/scratch.toml" --out "$work/scratch" "${one[@]}"
loss() { jq -r 'select(.metric == "train.loss" and .step == 20) | .value' "$1"/jobs/*/metrics.jsonl; }
pretrained=$(jq -r '.final["train.loss"]' "$work"/pre/jobs/0002-*/summary.json)
check "fine-tuned 20 steps: loss $(loss "$work/more") < the pretraining's last $pretrained < from scratch $(loss "$work/scratch")" \
  awk -v a="$(loss "$work/more")" -v b="$pretrained" -v c="$(loss "$work/scratch")" 'BEGIN { exit !(a < b && b < c) }'
# The other forms: a job's directory (its last saved step) and a saved step's directory.
src=$(ls -d "$work"/pre/jobs/0002-*)
expect 0 "2 job\(s\): 2 ok" -- $fl run "$work/branch.toml" --out "$work/job-form" --set "model.init_from=\"$src\"" --set 'sweep.arm=[{name = "wide"}]'
expect 0 "2 job\(s\): 2 ok" -- $fl run "$work/branch.toml" --out "$work/step-form" --set "model.init_from=\"$src/params/step000060\"" \
  --set 'sweep.arm=[{name = "wide"}]'
check "a job's directory: both seeds from that one job" test "$(cat "$work"/job-form/jobs/*/summary.json | jq -r .init_from.job | sort -u)" = "$src"

# Refused before any job runs, at the pipeline's line.
wide=(--set 'sweep.arm=[{name = "wide"}]')
expect 2 "branch.toml:[0-9]+:[0-9]+: model.init_from: .*/pre has no job of seed 5 \(its seeds: 0, 1\)" -- \
  $fl run "$work/branch.toml" --out "$work/none" "${wide[@]}" --set 'experiment.seeds=[0, 5]'
expect 2 "model.init_from: .*/pre has 0 jobs of seed 0 at point \"model.width=7\"; name one point: .*\(its points: \"model.width=40\", \"model.width=8\"\)" -- \
  $fl run "$work/branch.toml" --out "$work/none" "${wide[@]}" --set 'model.init_from.point="model.width=7"'
expect 2 "model.init_from: .*/pre has 2 jobs of seed 0, one per sweep point" -- \
  $fl run "$work/branch.toml" --out "$work/none" "${wide[@]}" --set "model.init_from=\"$work/pre\""
expect 2 "model.init_from: .*saved no parameters at step 30 \(saved: 60\)" -- \
  $fl run "$work/branch.toml" --out "$work/none" "${wide[@]}" --set 'model.init_from.step=30'
expect 2 "model.init_from: .*/nowhere does not exist; write a saved step" -- \
  $fl run "$work/branch.toml" --out "$work/none" "${wide[@]}" --set 'model.init_from="nowhere"'
expect 2 "model.init_from: unknown key 'pont' \(run, job, point, step\)" -- \
  $fl run "$work/branch.toml" --out "$work/none" "${wide[@]}" --set 'model.init_from.pont="x"'
check "a refused run writes nothing" test ! -e "$work/none/jobs"
expect 0 "" -- $fl run "$sweep" --out "$work/unsaved" --set 'experiment.seeds=[0]' -q
expect 2 "model.init_from: .*/unsaved/jobs/0001-[0-9a-f]* saved no parameters; run its pipeline with --save-params final" -- \
  $fl run "$work/branch.toml" --out "$work/none" "${wide[@]}" --set 'experiment.seeds=[0]' --set "model.init_from.run=\"$work/unsaved\""
# Checked when loaded, as featurelab eval checks: another width's blocks, a file changed since.
expect 1 "model.init_from: .*/W.npy: shape \(8, 2\), but the model's block is 40 × 2" -- \
  $fl run "$work/branch.toml" --out "$work/shape" "${wide[@]}" --set 'model.init_from.point="model.width=8"'
cp -r "$work/pre" "$work/changed"
echo 1 >>"$(ls -d "$work"/changed/jobs/0002-*)/params/step000060/a.npy"
expect 1 "model.init_from: .*/a.npy: its sha256 is [0-9a-f]+, not the [0-9a-f]+ the job recorded" -- \
  $fl run "$work/branch.toml" --out "$work/tampered" "${wide[@]}" --set "model.init_from.run=\"$work/changed\""

# A pipeline that exists for its weights says so itself: experiment.save_params, as --save-params (which overrides it).
expect 0 "" -- $fl run "$sweep" --out "$work/own" --set 'experiment.seeds=[0]' --set 'experiment.save_params="every:20"' -q
check "experiment.save_params = \"every:20\" saves steps 0, 20, 40, 60" \
  test "$(ls "$(ls -d "$work"/own/jobs/0000-*)/params" | tr '\n' ' ')" = "step000000 step000020 step000040 step000060 "
expect 0 "" -- $fl run "$sweep" --out "$work/flag" --set 'experiment.seeds=[0]' --set 'experiment.save_params="every:20"' \
  --save-params final -q
check "--save-params final overrides it" test "$(ls "$(ls -d "$work"/flag/jobs/0000-*)/params" | tr '\n' ' ')" = "step000060 "
expect 2 "experiment.save_params: expected \"final\" .* or \"every:N\" .*, got 'last'" -- \
  $fl run "$sweep" --out "$work/none" --set 'experiment.save_params="last"'

echo "$checks checks, $failures failed"
[[ $failures -eq 0 ]]
