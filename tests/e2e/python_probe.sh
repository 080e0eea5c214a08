#!/usr/bin/env bash
# A probe written in Python ([[probe]] use = "python"): its numbers are metrics and its arrays tables, as a C++
# probe's, in every job's worker process; an exception fails only its job, with the Python traceback.
source "$(dirname "$0")/lib.sh"
fl=$FEATURELAB
pipeline=$SOURCE_DIR/tests/data/python_probe.toml
data=$SOURCE_DIR/tests/data

# No `path`: the module is found in the pipeline's own directory, and config.toml records it as an absolute path.
expect 0 "4 job\(s\): 4 ok" -- $fl run "$pipeline" --out "$work/run"
check "the default path is the pipeline's directory, recorded absolute" grep -qF "path = '$data'" "$work/run/config.toml"
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
# Names a function returns are checked as a C++ probe's: one on two lines, or a table named as a path, fails its job.
expect 1 "0 ok, 4 not ok" -- $fl run "$pipeline" --out "$work/newline" --set "probe.3.path=\"$data\"" \
  --set 'probe.3.function="newline_metric"'
check "the job's reason names the metric, escaped" grep -qF 'the metric name \"x\\nsystem' "$work"/newline/jobs/0000-*/summary.json
expect 1 "0 ok, 4 not ok" -- $fl run "$pipeline" --out "$work/pathtable" --set "probe.3.path=\"$data\"" \
  --set 'probe.3.function="path_table"'
check "the job's reason names the table" grep -q 'the table name .*outside.* is not a name' "$work"/pathtable/jobs/0000-*/summary.json
check "and nothing named by it is written" test -z "$(find "$work/pathtable" -name 'outside*')"
# A function that forks and returns in both processes: the fork ends at its first write, the job's lines are
# written once, and the jobs end ok.
expect 0 "4 job\(s\): 4 ok" -- $fl run "$pipeline" --out "$work/forks" --set "probe.3.path=\"$data\"" --set 'probe.3.function="forks"'
check "no metrics.jsonl holds a line twice" bash -c "for f in '$work'/forks/jobs/*/metrics.jsonl; do [[ -z \$(sort \"\$f\" | uniq -d) ]] || exit 1; done"
check "and each has the step-0 lines once" test "$(grep -h '"step":0,"metric":"py.value"' "$work"/forks/jobs/*/metrics.jsonl | wc -l)" -eq 4
# A probe with a multiprocessing.Pool: the workers it forks get the stop signals' default actions back, so
# Pool.terminate() ends them (they inherited the job's handlers, and the job waited for them until its time limit).
expect 0 "4 job\(s\): 4 ok" -- timeout 120 $fl run "$pipeline" --out "$work/pool" --set "probe.3.path=\"$data\"" \
  --set 'probe.3.function="pooled"' --job-timeout 30
check "the pool's sum is measured" grep -q '"metric":"py.sum_of_squares","value":285}' "$work"/pool/jobs/0000-*/metrics.jsonl
# A missing module stops the run before any job starts, located at its [[probe]] table.
expect 2 "python_probe.toml:[0-9]+:1: probe.3 .*No module named 'no_such_module'" -- $fl run "$pipeline" --out "$work/missing" \
  --set "probe.3.path=\"$data\"" --set 'probe.3.module="no_such_module"' --set 'experiment.seeds=[0]'
check "and writes no job" test ! -d "$work/missing/jobs"

# The function's own parameters (set in the [[probe]] table, swept like any parameter), the model's hook points
# and the distribution's features (python_probe_hooks.toml).
hooks=$SOURCE_DIR/tests/data/python_probe_hooks.toml
expect 0 "2 job\(s\): 2 ok" -- $fl run "$hooks" --out "$work/hooks"
final() { grep -h "\"step\":40,\"metric\":\"$2\"" "$work"/hooks/jobs/$1-*/metrics.jsonl | sed 's/.*"value"://; s/}//'; }
check "a parameter reaches the function: the ReLU response at scale 2 is twice that at scale 1" \
  awk -v a="$(final 0000 resp.mean)" -v b="$(final 0001 resp.mean)" 'BEGIN { exit !(a > 0 && b > 1.9999 * a && b < 2.0001 * a) }'
check "top = 2 gives a table of the 2 largest activations" test "$(wc -l <"$(ls "$work"/hooks/jobs/0000-*/tables/resp.top.step40.csv)")" -eq 3
check "hooks(\"hidden.pre\", X) equals X Wᵀ computed from the weights (to float rounding), at all 6 evaluations" \
  bash -c "grep -h '\"metric\":\"pre.value\"' '$work'/hooks/jobs/*/metrics.jsonl | sed 's/.*\"value\"://; s/}//' |
    awk '{ n++; if (\$1 < 0 || \$1 > 1e-5) bad++ } END { exit !(n == 6 && !bad) }'"
expect 2 "python_probe_hooks.toml:[0-9]+:1: probe.0 .*'top' of python_probes.cluster_response: expected an integer in \[1, 80\], got 0" -- \
  $fl validate "$hooks" --set probe.0.top=0
expect 2 "probe.0 .*'tpo' is not a parameter of python_probes.cluster_response \(it declares: hook, scale, top\)" -- \
  $fl validate "$hooks" --set probe.0.tpo=2
expect 2 "probe.0 .*'hook' .*expected one of hidden.pre, hidden.post, got \"hidden\"" -- $fl validate "$hooks" --set 'probe.0.hook="hidden"'
expect 2 "probe.1 .*missing 'threshold' \(a number\): python_probes.needs_threshold declares it without a default" -- \
  $fl validate "$hooks" --set 'probe.1.function="needs_threshold"'
expect 0 "" -- $fl validate "$hooks" --set 'probe.1.function="needs_threshold"' --set probe.1.threshold=3
expect 1 "0 ok, 2 not ok" -- $fl run "$hooks" --out "$work/kept" --set 'probe.1.function="keeps_hooks"'
check "hooks kept past the call fail the job with a clear error, not a crash" \
  grep -q "works only during the probe's call" "$work"/kept/jobs/0000-*/summary.json

echo "$checks checks, $failures failed"
[[ $failures -eq 0 ]]
