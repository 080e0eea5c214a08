#!/usr/bin/env bash
# Figure 1 as the paper draws it: `featurelab plot` puts the training points (clean dots, noisy
# crosses) over the decision regions of the decision-grid probe. Usage: figure1_plot.sh FEATURELAB PIPELINE
set -euo pipefail
featurelab=$1
pipeline=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$featurelab" -q run "$pipeline" --out "$work/run" --set 'experiment.seeds=[0]' --set train.steps=300 \
  --set train.eval_every=300 >/dev/null 2>&1 || true  # 300 steps fit the points but not every assertion
"$featurelab" plot "$work/run" >/dev/null
script="$work/run/plots/decision-grid.sign.heatmap.gp"
for want in "nonuniform matrix with image" "clean_points.points.dat" "noisy_points.points.dat" "lc rgb variable"; do
  grep -q "$want" "$script" || { echo "FAIL: $script draws no '$want'"; exit 1; }
done
# The points file holds every training point of its kind: 4250 clean and 750 noisy (exactly 15 % of 5000).
test "$(wc -l < "$work/run/plots/decision-grid.clean_points.points.dat")" -eq 4250 || { echo "FAIL: clean points"; exit 1; }
test "$(wc -l < "$work/run/plots/decision-grid.noisy_points.points.dat")" -eq 750 || { echo "FAIL: noisy points"; exit 1; }
test -s "$work/run/plots/decision-grid.sign.heatmap.png" || { echo "FAIL: no PNG"; exit 1; }
echo "ok: the decision regions with 4250 clean and 750 noisy training points over them"
