#!/usr/bin/env bash
# A probe written in Python ([[probe]] use = "python"): its numbers are metrics and its arrays tables, as a C++
# probe's, in every job's worker process; an exception fails only its job, with the Python traceback.
source "$(dirname "$0")/lib.sh"
fl=$FEATURELAB
pipeline=$SOURCE_DIR/tests/data/python_probe.toml
data=$SOURCE_DIR/tests/data

expect 0 "4 job\(s\): 4 ok" -- $fl run "$pipeline" --out "$work/run" --set "probe.3.path=\"$data\""
check "the function's numbers are metrics at every evaluation" \
  test "$(grep -h '"metric":"py.W_fro"' "$work"/run/jobs/*/metrics.jsonl | wc -l)" -eq 16
check "one of them is the training set's size" grep -q '"metric":"py.n_train","value":300}' "$work"/run/jobs/0000-*/metrics.jsonl
check "its array is a table: a row per neuron (width 8)" test "$(wc -l <"$(ls "$work"/run/jobs/0000-*/tables/py.row_norms.step60.csv)")" -eq 9
check "summary.csv aggregates them over seeds" grep -qE '^1,40,py.W_fro,2,' "$work/run/summary.csv"

check "the report shows them" grep -q 'py.W_fro' "$(${fl} report "$work/run")"
check "and the plots draw them" bash -c "$fl plot '$work/run' --metric 'py.W_fro' | grep -q 'py.W_fro.*png'"

# Points 0 and 1 are widths 8 and 40: the function raises for width 40 only, so only those two jobs fail.
expect 1 "2 ok, 2 not ok" -- $fl run "$pipeline" --out "$work/raises" --set "probe.3.path=\"$data\"" --set 'probe.3.function="raises_late"'
check "the failed job's summary.json has the Python error and where it was raised" bash -c \
  "grep -q 'ValueError: a measurement that fails at step 40' '$work'/raises/jobs/0002-*/summary.json && grep -q 'python_probes.py' '$work'/raises/jobs/0002-*/summary.json"
check "its steps before it are kept" grep -q '"step":20,"metric":"py.value"' "$work"/raises/jobs/0002-*/metrics.jsonl
check "the width-8 jobs finished" grep -q '"status": "ok"' "$work"/raises/jobs/0000-*/summary.json
expect 1 "No module named 'no_such_module'" -- $fl run "$pipeline" --out "$work/missing" --set "probe.3.path=\"$data\"" \
  --set 'probe.3.module="no_such_module"' --set 'experiment.seeds=[0]'

echo "$checks checks, $failures failed"
[[ $failures -eq 0 ]]
