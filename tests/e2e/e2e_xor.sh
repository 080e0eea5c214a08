#!/usr/bin/env bash
# The flagship: Figure 1 of Frei, Chatterji & Bartlett (2022) at reduced size, end to end through
# the command, with the run directory a researcher reads afterwards.
source "$(dirname "$0")/lib.sh"
fl=$FEATURELAB
pipeline=$SOURCE_DIR/plugins/std/pipelines/xor-figure1.toml
out=$work/run
# Reduced: n = 1000 and m = 100 reach the theorem's state by t = 30 (our own reference simulation, seed 0:
# every clean training point right, every noisy one wrong, clean test error 0 from t = 30 on).
expect 0 "assert PASS" -- $fl run "$pipeline" --out "$out" --set data.train=1000 --set model.width=100 \
  --set train.steps=300 --set train.eval_every=100
job=$(ls -d "$out"/jobs/0000-* 2>/dev/null)
for f in pipeline.toml config.toml manifest.json run.json summary.csv asserts.json; do
  check "run directory has $f" test -s "$out/$f"
done
for f in config.toml metrics.jsonl summary.json log.txt done; do check "job directory has $f" test -f "$job/$f"; done
check "operative config records overrides and defaults" grep -q "width = 100" "$out/config.toml"
check "operative config records defaults" grep -qE "activation = ['\"]relu['\"]" "$out/config.toml"
check "manifest names the std pack and its fingerprint" grep -q '"fingerprint": "compiler=' "$out/manifest.json"
check "manifest names every loaded pack's file by its absolute path" grep -qE '"path": "/[^"]*/libstd\.so"' "$out/manifest.json"
check "summary says ok" grep -q '"status": "ok"' "$job/summary.json"
check "metrics.jsonl lines are JSON with step, metric, value" \
  bash -c "head -1 '$job/metrics.jsonl' | grep -qE '^\{\"step\":0,\"metric\":\"[a-z.=_0-9-]+\",\"value\":'"
# (The verdicts sit at the top level of each entry; at_init and controls nest theirs deeper.)
check "every assertion held" bash -c "! grep -qE '^    \"holds\": false' '$out/asserts.json'"
check "each assertion is checked at initialisation too" grep -q '"at_init"' "$out/asserts.json"
check "the cosine table was written" bash -c "ls '$job'/tables/*.csv >/dev/null"
check "summary.json says where the job's time went: setup, training, each probe and its evaluations" \
  jq -e '.time | (.setup > 0) and (.training > 0) and (.probes.observed.evaluations == 4) and (.probes.clean.seconds > 0)' \
  "$job/summary.json"
# A failing prediction exits 1 and says so.
expect 1 "assert FAIL" -- $fl run "$pipeline" --out "$work/fail" --set data.train=400 --set model.width=20 \
  --set train.steps=1
# The same seed gives byte-identical metrics.
$fl run "$pipeline" --out "$work/again" --set data.train=1000 --set model.width=100 --set train.steps=300 \
  --set train.eval_every=100 -q >/dev/null 2>&1
check "same seed, same metrics, byte for byte" cmp "$job/metrics.jsonl" "$(ls -d "$work"/again/jobs/0000-*)/metrics.jsonl"
finish
