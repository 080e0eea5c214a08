#!/usr/bin/env bash
# [[callback]] tables: a pipeline stops early with early-stopping (its metrics in metrics.jsonl, the job ok, its
# last step where it stopped, the assertions read there), gradient clipping runs under any trainer's loop, checkpoints
# are saved by step and by the best metric and featurelab eval measures them; validate
# refuses a misspelt callback with did-you-mean and a bad parameter; a misnamed metric fails the job naming the
# metrics recorded; describe and list document callbacks; a callback changes the job's id (what it computes).
source "$(dirname "$0")/lib.sh"
fl=$FEATURELAB
example=$SOURCE_DIR/plugins/std/pipelines/xor-network.toml
one=(--set 'experiment.seeds=[0]' --set train.steps=300 --set train.eval_every=10)

# Without a callback the job runs its 300 steps; stopping once the training accuracy is 1 ends it early.
expect 0 "1 ok" -- $fl run "$example" --out "$work/full" "${one[@]}"
stop='callback=[{use="early-stopping", monitor="accuracy.train", mode="max", target=1.0}]'
expect 0 "1 ok" -- $fl run "$example" --out "$work/stopped" "${one[@]}" --set "$stop"
metrics=$(ls "$work"/stopped/jobs/*/metrics.jsonl)
stopped_at=$(grep -o '"early-stopping.stopped_at","value":[0-9.]*' "$metrics" | sed 's/.*://' | cut -d. -f1)
check "early-stopping recorded the step it stopped at" test -n "$stopped_at"
check "it stopped before the last step" test "${stopped_at:-300}" -lt 300
check "the job's summary ends at that step" grep -q "\"steps\": *${stopped_at:-x}\b" "$work"/stopped/jobs/*/summary.json
check "the training accuracy there is 1" bash -c "grep '\"step\":${stopped_at:-x},' '$metrics' | grep -q '\"accuracy.train\",\"value\":1'"
check "the run without the callback did not stop" bash -c "! grep -q early-stopping $work/full/jobs/*/metrics.jsonl"
check "a callback changes the job's id" bash -c "[[ \$(ls $work/full/jobs) != \$(ls $work/stopped/jobs) ]]"

# Gradient clipping under the standard trainer: recorded at each evaluation.
expect 0 "1 ok" -- $fl run "$example" --out "$work/clipped" "${one[@]}" --set 'assert=[]' \
  --set 'callback=[{use="gradient-clipping", max_norm=0.01}]'
check "gradient-clipping records the clipped fraction" grep -q '"gradient-clipping.clipped","value":1' "$work"/clipped/jobs/*/metrics.jsonl

# Checkpoints: every 100 steps and at each new best test accuracy, saved as --save-params saves them, and measured
# again by featurelab eval.
expect 0 "1 ok" -- $fl run "$example" --out "$work/checkpoints" "${one[@]}" --set 'assert=[]' \
  --set 'callback=[{use="checkpoint", every=100, monitor="accuracy.test", mode="max"}]'
check "the checkpoints of steps 100, 200 and 300" bash -c "ls -d $work/checkpoints/jobs/*/params/step000100 $work/checkpoints/jobs/*/params/step000200 \
  $work/checkpoints/jobs/*/params/step000300 >/dev/null"
check "and of step 0, the first best" bash -c "ls -d $work/checkpoints/jobs/*/params/step000000 >/dev/null"
check "their hashes in the job's summary" grep -q 'step000100/' "$work"/checkpoints/jobs/*/summary.json
expect 0 "1 job\(s\) measured, 0 could not be" -- $fl eval "$work/checkpoints" --step 100
check "eval measured the step-100 parameters" bash -c "grep -q '\"step\":100,\"metric\":\"accuracy.test\"' $work/checkpoints/jobs/*/eval/*/metrics.jsonl"
expect 2 "would save nothing" -- $fl run "$example" --out "$work/no-checkpoint" "${one[@]}" --set 'callback=[{use="checkpoint"}]'

# Mistakes: named before any job, or by the job with what was recorded.
expect 2 "callback.0.use: no callback 'early-stoping'; did you mean 'early-stopping'" -- \
  $fl validate "$example" --set 'callback=[{use="early-stoping", monitor="accuracy.test"}]'
expect 2 "callback.0.mode: expected one of min, max" -- \
  $fl validate "$example" --set 'callback=[{use="early-stopping", monitor="accuracy.test", mode="up"}]'
expect 2 "callback.0.monitor.*required" -- $fl validate "$example" --set 'callback=[{use="early-stopping"}]'
expect 1 "0 ok" -- $fl run "$example" --out "$work/typo" "${one[@]}" --set 'assert=[]' \
  --set 'callback=[{use="early-stopping", monitor="acuracy.test"}]'
check "the failed job names the metric and those recorded" \
  grep -q 'monitor = \\"acuracy.test\\" is not recorded at step 0 (recorded there: accuracy.test' "$work"/typo/jobs/*/summary.json

# Documented like every component.
expect 0 "callback early-stopping .*pack std" -- $fl describe early-stopping
expect 0 "gradient-clipping +std" -- $fl list callback
expect 0 "checkpoint +std" -- $fl list callback

finish
