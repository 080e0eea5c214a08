#!/usr/bin/env bash
# The experiment engine: sweeps × seeds as jobs in worker processes, determinism across --jobs,
# resume after kill -9, crash isolation (also of `featurelab job`), assertions over sweep points,
# collect, plot, report, prepare + job for external schedulers.
source "$(dirname "$0")/lib.sh"
fl=$FEATURELAB
sweep=$SOURCE_DIR/tests/data/sweep.toml

expect 0 "4 job\(s\): 2 sweep point\(s\) × 2 seed\(s\)" -- $fl validate "$sweep"
expect 0 "assert PASS  accuracy.test\[model.width=40\]" -- $fl run "$sweep" --out "$work/j1" --jobs 1
expect 0 "" -- $fl run "$sweep" --out "$work/j2" --jobs 2 -q
# --jobs 3 for 4 jobs: the last ones inherit the cores of the finished ones mid-run (their OpenMP row
# chunks, featurelab/threads.hpp), which must change no bit either.
expect 0 "" -- $fl run "$sweep" --out "$work/j3" --jobs 3 -q
for d in "$work"/j1/jobs/*/; do
  name=$(basename "$d")
  check "job $name: --jobs 1 and --jobs 2 give byte-identical metrics" cmp "$d/metrics.jsonl" "$work/j2/jobs/$name/metrics.jsonl"
  check "job $name: --jobs 1 and --jobs 3 give byte-identical metrics" cmp "$d/metrics.jsonl" "$work/j3/jobs/$name/metrics.jsonl"
done
check "summary.csv has a row per point and metric" grep -qE '^1,40,accuracy.test,2,' "$work/j1/summary.csv"
check "every job has its done marker" test "$(ls "$work"/j1/jobs/*/done | wc -l)" -eq 4

# A selector's `step` key reads another step: a trend within one job (accuracy improves from step 0).
expect 0 "assert PASS  accuracy.train\\[step=60\\] > accuracy.train\\[step=0\\]" -- $fl run "$sweep" --out "$work/trend" \
  --set 'assert.0.expect="accuracy.train[step=60] > accuracy.train[step=0]"'
expect 1 "accuracy.train has no value at step 7" -- $fl run "$sweep" --out "$work/trend7" -q \
  --set 'assert.0.expect="accuracy.train[step=7] > 0"'
expect 2 "step=x is not a step" -- $fl validate "$sweep" --set 'assert.0.expect="accuracy.train[step=x] > 0"'
expect 1 "data.train = \"all\" but 'xor-clusters' generates samples without end" -- $fl run "$sweep" --out "$work/all" \
  --set 'data.train="all"' --set 'experiment.seeds=[0]'
check "a misspelt metric read twice is reported once" bash -c "$fl validate '$sweep' --set 'assert.0.expect=\"acc.train[step=60] > acc.train[step=0]\"' 2>&1 | grep -c 'names no probe' | grep -qx 1"

# A probe's `every`: at step 0, at the last step and at the evaluations on its multiples (eval_every = 20 here).
probe_steps() { grep -h "\"metric\":\"$2\"" "$1"/jobs/*/metrics.jsonl | sed 's/{"step":\([0-9]*\),.*/\1/' | tr '\n' ' '; }
expect 0 "" -- $fl run "$sweep" --out "$work/every" -q --set 'experiment.seeds=[0]' --set 'sweep.model.width=[8]' \
  --set probe.2.every=0 --set probe.1.every=40 --set 'assert=[]'
check "every = 0: robust-accuracy at the first and the last step only" test "$(probe_steps "$work/every" robust-accuracy.r=0.1)" = "0 60 "
check "every = 40: at 0, 40 and the last step" test "$(probe_steps "$work/every" neuron-feature-cosine.max)" = "0 40 60 "
check "no every: at every evaluation" test "$(probe_steps "$work/every" accuracy.test)" = "0 20 40 60 "
expect 2 "probe.2.every: expected a step count >= 0" -- $fl validate "$sweep" --set probe.2.every=-1
expect 2 "probe.2.every: expected a step count >= 0" -- $fl validate "$sweep" --set 'probe.2.every="final"'

# Where a job's time went: summary.json's "time"; a probe costlier per evaluation than the training between two
# evaluations is named in the job's log (fixture:slow-probe sleeps 0.1 s at each of 11), a cheap one is not.
expect 0 "" -- env FEATURELAB_PLUGIN_PATH="$FIXTURE_DIR/fixture" $fl run "$SOURCE_DIR/tests/data/slow-probe.toml" --out "$work/slow" -q
check "summary.json: setup, training, each probe's seconds and evaluations" jq -e \
  '.time | (.setup > 0) and (.training > 0) and (.probes["slow-probe"].evaluations == 11) and (.probes["slow-probe"].seconds >= 1.1)' \
  "$work"/slow/jobs/0000-*/summary.json
check "the slow probe is named in log.txt, with its cost" \
  grep -qE "warning probe 'slow-probe' took 0\.1[0-9]*s per evaluation \(11 evaluations, 1\.[0-9]+s in all\), more than the" \
  "$work"/slow/jobs/0000-*/log.txt
check "the cheap probe is not" bash -c "! grep -q \"probe 'accuracy' took\" '$work'/slow/jobs/0000-*/log.txt"

# Re-running into the same directory skips the finished jobs.
expect 0 "4 already done" -- $fl run "$sweep" --out "$work/j1"
expect 2 "another configuration" -- $fl run "$sweep" --out "$work/j1" --set train.steps=61
# Assertions are not part of a job: an edited one is checked against the finished jobs without rerunning them.
expect 1 "4 already done.*|assert FAIL  accuracy.train >= 0.99" -- $fl run "$sweep" --out "$work/j1" --set 'assert.0.expect="accuracy.train >= 0.99"'
# The FAIL line carries the evidence: the values compared, at which point and seed.
expect 1 "assert FAIL  accuracy.train >= 0.99  \(final, every-seed\): \[model.width=8\] seed 0: 0\.[0-9]+ >= 0.99 is false" -- \
  $fl run "$sweep" --out "$work/j1" --set 'assert.0.expect="accuracy.train >= 0.99"'
# A --set of a swept key would be replaced by the sweep at every point: refused, with the fix.
expect 2 "--set model.width: the \[sweep\] \(.*sweep.toml:[0-9]+:[0-9]+\) also sets model.width.*--set 'sweep.model.width=\[5\]'" -- \
  $fl validate "$sweep" --set model.width=5
check "the edited assertion was evaluated" grep -q '"expect": "accuracy.train >= 0.99"' "$work/j1/asserts.json"
expect 0 "4 already done" -- $fl run "$sweep" --out "$work/j1"
cp -r "$work/j1" "$work/old"
sed -i 's/"featurelab_version": "[^"]*"/"featurelab_version": "0.0.1"/' "$work/old/run.json"
expect 2 "made by featurelab 0.0.1" -- $fl run "$sweep" --out "$work/old"
expect 2 "not a \[sweep\] key" -- $fl validate "$sweep" --set 'assert.1.where=model.depth=3'
# Variant axes: several keys changed together under one name.
variants=$SOURCE_DIR/tests/data/variants.toml
expect 0 "4 job\(s\): 4 sweep point\(s\)" -- $fl validate "$variants"
expect 0 "assert PASS  accuracy.train\[objective=hinge\]" -- $fl run "$variants" --out "$work/variants" --jobs 2
check "a variant applies all its keys" bash -c "grep -l 'lr = 0.050' '$work'/variants/jobs/*/config.toml | xargs grep -q \"use = 'std:hinge'\""
printf '[sweep]\nobjective = [{ "loss.use" = "hinge" }]\n' > "$work/bad-variant.toml"
expect 2 "every variant is a table with a name" -- $fl validate "$work/bad-variant.toml" --set 'data.use="xor-clusters"'
printf '[sweep]\nn = [{ name = "small", "data.train" = 100 }]\n' > "$work/column-axis.toml"
expect 2 "sweep.n: 'n' is a column of summary.csv" -- $fl validate "$work/column-axis.toml" --set 'data.use="xor-clusters"'
# SQLite's columns ignore case: an axis "Step" or "Value" would be a second step or value column of the export.
printf '[sweep]\nStep = [{ name = "small", "data.train" = 100 }]\nValue = [{ name = "v", "data.test" = 100 }]\n' > "$work/case-axis.toml"
expect 2 "sweep.Step: 'step' selects a training step.*whatever its case" -- $fl validate "$work/case-axis.toml" --set 'data.use="xor-clusters"'
expect 2 "sweep.Value: 'Value' is a column of summary.csv or of the exported tables" -- \
  $fl validate "$work/case-axis.toml" --set 'data.use="xor-clusters"'
# Names reach plot and Slurm scripts, which are read line by line: a control character in one is refused where written.
printf '[sweep]\nv = [{ name = "a\\nsystem 1", "model.width" = 8 }]\n' > "$work/newline-variant.toml"
expect 2 "newline-variant.toml:2:.*sweep.v: the variant name \"a\\\\nsystem 1\" holds a control character" -- \
  $fl validate "$work/newline-variant.toml" --set 'data.use="xor-clusters"'
expect 2 "experiment.name: the name \"x\\\\ntouch y\" holds a control character" -- \
  $fl validate "$sweep" --set 'experiment.name="x\ntouch y"'
sed 's/"model.width" = \[8, 40\]/"model.widht" = [8, 40]/' "$sweep" > "$work/badsweep.toml"
expect 2 "\[sweep\] model.widht.*did you mean 'width'" -- $fl validate "$work/badsweep.toml"

# kill -9 in the middle of a sweep: finished jobs survive, --resume completes, results identical. The jobs last
# about a second each in any build (tests/data/kill-sweep.toml: a probe that sleeps), so the kill lands between jobs.
killsweep=$SOURCE_DIR/tests/data/kill-sweep.toml
export FEATURELAB_PLUGIN_PATH=$FIXTURE_DIR/fixture
$fl run "$killsweep" --out "$work/killed" --jobs 1 -q >/dev/null 2>&1 &
pid=$!
for _ in $(seq 1 200); do
  [[ $(ls "$work"/killed/jobs/*/done 2>/dev/null | wc -l) -ge 1 ]] && break
  sleep 0.1
done
kill -9 $pid; pkill -9 -f "$work/killed" 2>/dev/null; wait $pid 2>/dev/null
finished=$(ls "$work"/killed/jobs/*/done 2>/dev/null | wc -l)
check "some but not all jobs finished before the kill ($finished)" test "$finished" -ge 1 -a "$finished" -lt 4
cp -r "$work/killed" "$work/killed-before"
expect 0 "$finished already done" -- $fl run "$killsweep" --out "$work/killed" --resume
$fl run "$killsweep" --out "$work/clean" -q >/dev/null 2>&1
for d in "$work"/killed-before/jobs/*/; do
  [[ -f $d/done ]] || continue
  name=$(basename "$d")
  check "job $name kept its pre-kill results" cmp "$d/metrics.jsonl" "$work/killed/jobs/$name/metrics.jsonl"
done
for d in "$work"/clean/jobs/*/; do
  name=$(basename "$d")
  check "resumed job $name equals an uninterrupted run" cmp "$d/metrics.jsonl" "$work/killed/jobs/$name/metrics.jsonl"
done

unset FEATURELAB_PLUGIN_PATH

# Ctrl-C (SIGINT to the parent): running jobs stop cleanly, nothing is lost, exit 130; resume finishes.
$fl run "$sweep" --out "$work/int" --jobs 2 --set train.steps=200000 -q >/dev/null 2>&1 &
pid=$!
for _ in $(seq 1 100); do
  [[ $(ls "$work"/int/jobs/*/metrics.jsonl 2>/dev/null | wc -l) -ge 2 ]] && break
  sleep 0.1
done
sleep 0.5
kill -INT $pid
wait $pid
status=$?
check "interrupted run exits 130 (got $status)" test $status -eq 130
check "interrupted jobs say so" bash -c "grep -l '\"status\": \"interrupted\"' '$work'/int/jobs/*/summary.json | grep -q ."
check "interrupted jobs have no done marker" bash -c "test -z \"\$(ls '$work'/int/jobs/*/done 2>/dev/null)\""

# Crash isolation: every way of misbehaving fails only its own job, with its reason. The memory limit is
# small so that the leak reaches it well inside the 5 s time limit: a virtual machine's first touch of fresh
# pages can take seconds per GiB (768 MiB took over 5 s once in CI).
export FEATURELAB_PLUGIN_PATH=$FIXTURE_DIR/fixture
expect 1 "" -- $fl run "$SOURCE_DIR/tests/data/crash.toml" --out "$work/crash" --jobs 2 --job-memory 300
reason() { grep -h '"error"' "$work"/crash/jobs/"$1"-*/summary.json; }
check "the well-behaved job finished" grep -q '"status": "ok"' "$work"/crash/jobs/0000-*/summary.json
# Each names the plugin file and the component it was executing (the worker's signal handler).
site="in model 'crash-model' \\(/[^)]*/libfixture\\.so\\)"
check "segfault: crashed with signal 11, in the plugin" grep -qE "Segmentation fault \\(signal 11\\) $site" "$work"/crash/jobs/0001-*/summary.json
check "abort: crashed with signal 6, in the plugin" grep -qE "\\(signal 6\\) $site" "$work"/crash/jobs/0002-*/summary.json
check "throw: the exception's message" bash -c "grep -q 'crash-model was told to throw' '$work'/crash/jobs/0003-*/summary.json"
check "nan: divergence with the step and the component" grep -qE "diverged at step 0: .*came from the model \\(its outputs" "$work"/crash/jobs/0004-*/summary.json
check "loop: timed out, in the plugin" grep -qE "timed out after 5 s .*$site" "$work"/crash/jobs/0005-*/summary.json
check "leak: out of memory" bash -c "grep -qiE 'out of memory|signal' '$work'/crash/jobs/0006-*/summary.json || { cat '$work'/crash/jobs/0006-*/summary.json; false; }"
# An augment that forgets to size its output: the job fails with the shapes, it does not crash.
expect 1 "augment.0 \(fixture:forgetful-augment\): its output has 100 samples \(rows of X\) but 0 labels \(y\); .*out.resize" -- \
  $fl run "$SOURCE_DIR/tests/data/forgetful-augment.toml" --out "$work/forgetful"
# `featurelab job` runs its job in a worker process as `run` does: a crash is recorded in the job's
# summary.json with the signal and the plugin, and experiment.timeout holds.
expect 0 "prepared" -- $fl run "$SOURCE_DIR/tests/data/crash.toml" --out "$work/jobcrash" --set experiment.timeout=2 --prepare
expect 1 "job 1 failed: crashed: Segmentation fault \(signal 11\) $site" -- $fl job "$work/jobcrash" --index 1
check "job: the segfault's summary.json says failed" grep -q '"status": "failed"' "$work"/jobcrash/jobs/0001-*/summary.json
check "job: ... naming the signal and the plugin" grep -qE "Segmentation fault \(signal 11\) $site" "$work"/jobcrash/jobs/0001-*/summary.json
start=$SECONDS
expect 1 "job 5 failed: timed out after 2 s \(experiment.timeout or --job-timeout\) $site" -- $fl job "$work/jobcrash" --index 5
check "job: the endless loop was stopped by experiment.timeout = 2 ($((SECONDS - start)) s)" test $((SECONDS - start)) -le 8
check "job: the time-out is in its summary.json" grep -q "timed out after 2 s" "$work"/jobcrash/jobs/0005-*/summary.json
# A worker that exits with status 0 before its job finished (a plugin's exit(0), a probe's os._exit(0)) failed: it
# is never logged done, its summary.json says so (with the step it reached, once it reported one), and
# `featurelab job` exits 1 (a Slurm task must not report success).
expect 1 "#0 seed 0 .*failed: the worker process ended with exit status 0 before the job finished .*exit\\(\\)" -- \
  $fl run "$SOURCE_DIR/tests/data/crash.toml" --out "$work/exit0" --set 'sweep."model.mode"=["exit0"]'
check "exit 0: never logged done" bash -c "! $fl status '$work/exit0' | grep -q ' 1 ok'"
check "exit 0: its summary.json says failed, and why" \
  bash -c "grep -q '\"status\": \"failed\"' '$work'/exit0/jobs/0000-*/summary.json && grep -q 'exit status 0 before the job finished' '$work'/exit0/jobs/0000-*/summary.json"
expect 0 "prepared" -- $fl run "$SOURCE_DIR/tests/data/crash.toml" --out "$work/jobexit0" --set 'sweep."model.mode"=["exit0"]' --prepare
expect 1 "job 0 failed: the worker process ended with exit status 0 before the job finished" -- $fl job "$work/jobexit0" --index 0
# The check that builds every component before the first job runs as a worker runs (model.at_call = 0: in the
# constructor). A constructor that never returns is stopped at the job's time limit, naming the point and the plugin;
# one past --job-memory fails with the memory limit; a helper process it leaves running holds nothing up and is
# gone with the check; a stop signal ends the check at once and leaves no process.
start=$SECONDS
expect 2 "building the components of sweep point model.mode=.?loop.? did not finish within 3 s \(in /[^)]*/libfixture\.so\)" -- \
  timeout 60 $fl run "$SOURCE_DIR/tests/data/crash.toml" --out "$work/ctorloop" --set model.at_call=0 \
  --set 'sweep."model.mode"=["none","loop"]' --job-timeout 3
check "the looping constructor was stopped by --job-timeout 3 ($((SECONDS - start)) s)" test $((SECONDS - start)) -le 15
check "and left no process" none_left "$work/ctorloop"
expect 2 "crash.toml:[0-9:]* out of memory in model \(fixture:crash-model\)|building the components took more than the 200 MiB of --job-memory" -- \
  timeout 60 $fl run "$SOURCE_DIR/tests/data/crash.toml" --out "$work/ctorleak" --set model.at_call=0 \
  --set 'sweep."model.mode"=["leak"]' --job-memory 200
start=$SECONDS
expect 0 "" -- timeout 60 $fl validate "$SOURCE_DIR/tests/data/crash.toml" --set model.at_call=0 --set 'sweep."model.mode"=["background"]'
check "a constructor's helper process does not hold validate ($((SECONDS - start)) s)" test $((SECONDS - start)) -le 10
check "and is gone with the check" bash -c "sleep 0.2; ! pgrep -x -f 'sleep 601' >/dev/null"
$fl run "$SOURCE_DIR/tests/data/crash.toml" --out "$work/ctorstop" --set model.at_call=0 --set 'sweep."model.mode"=["loop"]' \
  >"$work/ctorstop.log" 2>&1 &
pid=$!
for _ in $(seq 1 600); do pgrep -P $pid >/dev/null && break; sleep 0.05; done  # the check's process has begun
sleep 0.3
kill -TERM $pid
start=$SECONDS
wait $pid
status=$?
check "SIGTERM during the check: exit 143 at once (got $status in $((SECONDS - start)) s)" \
  bash -c "test $status -eq 143 && test $((SECONDS - start)) -le 3 && grep -q 'while the components were being built' '$work/ctorstop.log'"
check "and no process left" none_left "$work/ctorstop"
unset FEATURELAB_PLUGIN_PATH

# Prepare, then one job at a time as a Slurm array would; collect joins the results.
expect 0 "prepared" -- $fl run "$sweep" --out "$work/prep" --prepare
for i in 0 1 2 3; do expect 0 "job $i done" -- $fl job "$work/prep" --index $i; done
expect 2 "out of range" -- $fl job "$work/prep" --index 4
expect 0 "" -- $fl collect "$work/prep" "$work/j1" --out "$work/joined.csv"
check "collect rebuilt summary.csv" test -s "$work/prep/summary.csv"
check "the joined table names both runs" bash -c "grep -q '^prep,' '$work/joined.csv' && grep -q '^j1,' '$work/joined.csv'"
check "the joined table has a column per sweep key" test "$(head -1 "$work/joined.csv")" = "run,point,model.width,metric,n,mean,std,min,max"
check "and names a point by its values" grep -qE '^prep,1,40,accuracy.test,2,' "$work/joined.csv"
for d in "$work"/j1/jobs/*/; do
  name=$(basename "$d")
  check "job $name via 'featurelab job' equals the worker run" cmp "$d/metrics.jsonl" "$work/prep/jobs/$name/metrics.jsonl"
done

# Plots and the report.
if command -v gnuplot >/dev/null; then
  expect 0 "accuracy.test.vs-step.png" -- $fl plot "$work/j1"
  check "robust accuracy against the radius" test -s "$work/j1/plots/robust-accuracy.r.curve.png"
  expect 0 "vs-model.width.svg" -- $fl plot "$work/j1" --metric accuracy.test --x model.width
  expect 0 "accuracy.train.vs-step.png" -- $fl plot "$work/j1" --metric 'accuracy.t*'
  check "a heatmap of the cosine table" bash -c "ls '$work'/j1/plots/*heatmap.png >/dev/null"
  check "neurons × 2 features, named by index: drawn cell by cell, not as a plane at equal scales" bash -c \
    "grep -q 'matrix rowheaders columnheaders' '$work'/j1/plots/neuron-feature-cosine.cosine*.heatmap.gp && ! grep -q 'size ratio -1' '$work'/j1/plots/neuron-feature-cosine.cosine*.heatmap.gp"
  expect 0 "accuracy.test.vs-step.pdf" -- $fl plot "$work/j1" --metric accuracy.test --log-y --pdf
  check "--log-y: a logarithmic y axis; --pdf: a PDF beside the PNG" bash -c \
    "grep -q 'set logscale y' '$work/j1/plots/accuracy.test.vs-step.gp' && head -c 4 '$work/j1/plots/accuracy.test.vs-step.pdf' | grep -q '%PDF'"
  check "plots are non-empty" bash -c "test -z \"\$(find '$work/j1/plots' -name '*.png' -empty)\""
  expect 0 "report.html" -- $fl report "$work/j1"
  check "the report shows assertions and plots" bash -c "grep -q 'PASS' '$work/j1/report.html' && grep -q '<img' '$work/j1/report.html'"
  expect 2 "no metric matches 'acc.test'" -- $fl plot "$work/j1" --metric acc.test
  # A name is never a gnuplot command: a copied run whose metrics.jsonl gains a metric named with newlines and a
  # gnuplot `system` line between them is plotted, the name drawn as text (the run directory could be anyone's).
  cp -a "$work/j1" "$work/gp"
  job0=$(ls -d "$work"/gp/jobs/0000-*)
  printf '{"step":60,"metric":"x\\nsystem '"'"'touch %s/GPWN'"'"'\\n#","value":1}\n' "$work" >>"$job0/metrics.jsonl"
  check "the injected metric is in the copy" grep -q 'system' "$job0/metrics.jsonl"
  # Recorded in summary.json as the job's own file, as whoever crafts such a directory would do.
  jq --arg sha "$(sha256sum "$job0/metrics.jsonl" | cut -c1-64)" --argjson lines "$(wc -l <"$job0/metrics.jsonl")" \
    '.metrics_file = {lines: $lines, sha256: $sha}' "$job0/summary.json" >"$work/gp-summary.json" && mv "$work/gp-summary.json" "$job0/summary.json"
  expect 0 "x_system.*vs-step.png" -- $fl plot "$work/gp" --metric 'x*'
  expect 0 "report.html" -- $fl report "$work/gp"
  check "neither plot nor report ran the name's gnuplot line" test ! -e "$work/GPWN"
  check "the script holds the name as one escaped string" grep -qF 'x\nsystem' "$work"/gp/plots/x_system*.vs-step.gp
  # A run still going (here: no job finished, nothing collected): a banner, the jobs' states, the curves of what they
  # recorded, and no gnuplot error for the plots that need finished jobs.
  cp -a "$work/j1" "$work/partial"
  rm -f "$work"/partial/jobs/*/done "$work"/partial/jobs/*/summary.json "$work/partial/summary.csv" "$work/partial/asserts.json"
  expect 0 "report.html" -- $fl report "$work/partial"
  check "a partial run's report: its banner, its curves, no gnuplot error" bash -c "grep -q '<b>0 of [0-9]* jobs finished</b>' \
    '$work/partial/report.html' && grep -q 'vs-step.png' '$work/partial/report.html' && ! grep -q 'gnuplot failed' '$work/partial/report.html'"
  # An axis of arrays, and overrides: the summary's cells stay under their headers (a quoted cell holds a comma), the
  # overrides and each point's own settings are shown, numbers to 4 digits with their exact value on hover.
  expect 0 "" -- $fl run "$sweep" --out "$work/arrays" -q --set 'sweep."train.eval_at"=[[20,40],[40]]' --set 'experiment.seeds=[0]'
  expect 0 "report.html" -- $fl report "$work/arrays"
  check "the summary row of an array value: the metric under 'metric', not shifted" \
    grep -q '<tr><td>0</td><td>8</td><td>\[ 20, 40 \]</td><td>accuracy.test</td><td>1</td>' "$work/arrays/report.html"
  check "the overrides and point 3's own settings" bash -c "grep -q '<li><code>experiment.seeds=\[0\]</code></li>' '$work/arrays/report.html' &&
    grep -q '<tr><td>3</td><td style=\"text-align:left\"><code>model.width = 40, train.eval_at = \[40\]</code>' '$work/arrays/report.html'"
  # Several runs: their curves in the same plots, one page comparing them (each run against the first, key by key).
  expect 2 "several runs are drawn into a directory of their own: give --out DIR" -- $fl plot "$work/j1" "$work/arrays"
  expect 0 "both/accuracy.test.vs-step.png" -- $fl plot "$work/j1" "$work/arrays" --out "$work/both" --metric accuracy.test
  check "each run's sweep points are curves of their own, named by run" bash -c \
    "grep -q 'title \"run=j1 model.width=8\"' '$work/both/accuracy.test.vs-step.gp' && grep -q 'title \"run=arrays model.width=40 train.eval_at=' '$work/both/accuracy.test.vs-step.gp'"
  expect 0 "compared/report.html" -- $fl report "$work/j1" "$work/arrays" --out "$work/compared"
  check "one page: the plots together, the differences from the first run, each run's sections" bash -c \
    "grep -q '<h2>Differences from the first run</h2>' '$work/compared/report.html' && grep -q 'train.eval_at' '$work/compared/report.html' &&
     [[ \$(grep -c '<h2>Jobs</h2>' '$work/compared/report.html') == 2 ]] && grep -q 'src=\"plots/accuracy.test.vs-step.png\"' '$work/compared/report.html'"
  check "a mean to 4 digits, its exact value on hover" grep -qE '<td title="0\.[0-9]{5,}">0\.[0-9]{1,4}</td>' "$work/arrays/report.html"
fi
finish
