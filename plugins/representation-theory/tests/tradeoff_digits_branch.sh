#!/usr/bin/env bash
# tradeoff-digits branched, reduced: the pretraining saves its weights (experiment.save_params), FT and Ours start
# from them ([model] init_from), and their few-label probe at step 0 reads the pretraining's last value, bit for bit
# (a random initialisation's probe reads 0.80–0.84). Both runs' assertions hold. Usage: FEATURELAB=… $0
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
"$FEATURELAB" -q run "$here/pipelines/tradeoff-digits-branch-1-pretrain-reduced.toml" --out "$out/pre"
"$FEATURELAB" -q run "$here/pipelines/tradeoff-digits-branch-2-finetune-reduced.toml" --out "$out/fine" \
  --set "model.init_from.run=\"$out/pre\""
last=$(jq -s -r 'map(select(.metric == "lp-mnist.accuracy")) | max_by(.step) | .value' "$out"/pre/jobs/*/metrics.jsonl)
for job in "$out"/fine/jobs/*; do
  first=$(jq -s -r 'map(select(.metric == "lp-mnist.accuracy" and .step == 0)) | .[0].value' "$job/metrics.jsonl")
  if [[ $first != "$last" ]]; then
    echo "FAIL: $job: lp-mnist.accuracy at step 0 is $first, the pretraining's last $last" >&2
    exit 1
  fi
done
echo "both arms start at the pretraining's lp-mnist.accuracy $last"
