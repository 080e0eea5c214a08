#!/usr/bin/env bash
# The featurelab command: listing without loading, describe, validate, precise refusals, exit codes.
source "$(dirname "$0")/lib.sh"
fl=$FEATURELAB
good=$SOURCE_DIR/tests/data/xor-small.toml
mark=$work/fixture-loaded
export FEATURELAB_FIXTURE_LOAD_MARK=$mark

expect 0 "two-layer" -- $fl list
expect 0 "^model:" -- $fl list model
expect 2 "unknown kind" -- $fl list modle
expect 0 "width" -- $fl describe two-layer
expect 0 "Parameters" -- $fl describe std:two-layer
expect 0 "No parameters" -- $fl describe std:logistic
expect 0 "Source: plugins/std/src/two_layer_model.hpp" -- $fl describe two-layer
expect 3 "did you mean 'two-layer'" -- $fl describe two-layr
# A component found nowhere: the directories searched, in order, and how to add one.
expect 3 "no component 'my-model'.*searched, in order: /nonexistent/dir \(missing\), .*--plugin-path DIR, or FEATURELAB_PLUGIN_PATH" -- \
  $fl --plugin-path /nonexistent/dir describe my-model
for sub in list describe validate run plugins; do expect 0 "Usage|usage" -- $fl $sub --help; done
expect 2 "" -- $fl frobnicate

expect 0 "ok \(1 job" -- $fl validate "$good"
expect 0 "width = 30" -- $fl validate "$good" --print --set model.width=30
# A metric a probe never records is refused before any job, with the closest one it does record.
expect 2 "probe 'clean' records no metric 'tset'; did you mean 'clean.test'" -- \
  $fl validate $SOURCE_DIR/plugins/std/pipelines/xor-figure1.toml --set 'assert.2.expect=clean.tset >= 0.98'
expect 0 "Metrics .*accuracy.test" -- $fl describe accuracy
# A pack's activation (kind "activation") by name; a misspelt one refused with the closest.
expect 0 "ok" -- $fl validate "$good" --set model.activation=tanh
expect 2 "activation 'tahn' is not built in .*did you mean 'tanh'" -- $fl validate "$good" --set model.activation=tahn
expect 2 "^error: --set model.widht: model.widht: unknown parameter.*did you mean 'width'" -- \
  $fl validate "$good" --set model.widht=3
expect 2 "--set model.width.: empty part in the dotted key" -- $fl validate "$good" --set model.width.=5
expect 2 "--set experiment.base: base files cannot be set from outside the file" -- $fl validate "$good" --set experiment.base=x
# Counts and limits on the command line say what they count, not CLI11's 309-digit bound.
expect 2 "--jobs: 0 is not a count of worker processes; give a whole number of at least 1" -- $fl run "$good" --jobs 0
expect 2 "--job-timeout: -1 is not a number of seconds" -- $fl run "$good" --job-timeout -1
expect 2 "--index: -1 is not a job index; give a whole number of at least 0" -- $fl job "$work" --index -1
sed 's/^width = 40/widht = 40/' "$good" > "$work/typo.toml"
expect 2 "typo.toml:[0-9]+:[0-9]+: model.widht: unknown parameter.*did you mean 'width'" -- $fl validate "$work/typo.toml"
expect 2 "optimizer.lr: expected a number > 0, got -1" -- $fl validate "$good" --set optimizer.lr=-1
expect 2 "no such pipeline file" -- $fl run "$work/absent.toml"
# A dataset that cannot fit (n = 1e9, d = 1e4): refused at validation with the estimate, before any job.
expect 2 "xor-small.toml:[0-9]+:[0-9]+: data: 1000000000 train \+ [0-9]+ test samples of dimension 10000 need [0-9.]+ GiB.*the machine has" \
  -- $fl validate "$good" --set data.train=1000000000 --set data.dim=10000
expect 2 "need [0-9.]+ GiB" -- $fl run "$good" --out "$work/huge" --set data.train=1000000000 --set data.dim=10000
check "a refused run starts no job" test ! -e "$work/huge/jobs"

# Broken plugins on the path: refused with the reason, not loaded silently.
expect 3 "ABI [0-9]+, core expects [0-9]+" -- $fl --plugin-path "$FIXTURE_DIR/wrong-abi" plugins doctor
expect 3 "fingerprint differs \((.*; )?scalar: plugin (double, core float|float, core double)" -- \
  $fl --plugin-path "$FIXTURE_DIR/other-scalar" plugins doctor
expect 3 "model 'old-model' implements featurelab.model/0, this featurelab calls featurelab.model/3" -- \
  $fl --plugin-path "$FIXTURE_DIR/old-interface" plugins doctor
expect 3 "missing entry point 'featurelab_pack'" -- $fl --plugin-path "$FIXTURE_DIR/no-entry" plugins doctor
echo garbage > "$work/libgarbage.so"
expect 3 "not a loadable shared library" -- $fl plugins manifest "$work/libgarbage.so"
expect 0 "ok .*libstd.so \(pack std" -- $fl plugins doctor
# Built without optimisation (a Debug build): it loads, and whatever lists plugins says it will be slow.
expect 0 "ok +.*libfixture-unoptimized.so \(pack tiny" -- $fl --plugin-path "$FIXTURE_DIR/unoptimized" plugins doctor
expect 0 "warning +.*libfixture-unoptimized.so: built without optimisation \(CMAKE_BUILD_TYPE Debug, or none given\).*tens of times slower" -- \
  $fl --plugin-path "$FIXTURE_DIR/unoptimized" plugins doctor
expect 0 "warning: .*libfixture-unoptimized.so: built without optimisation" -- \
  $fl --plugin-path "$FIXTURE_DIR/unoptimized" validate "$good"

# The fixture pack via FEATURELAB_PLUGIN_PATH: listed and described from its manifest only, and
# not loaded by a pipeline that does not use it.
export FEATURELAB_PLUGIN_PATH=$FIXTURE_DIR/fixture
rm -f "$mark"
expect 0 "throwing-model" -- $fl list
expect 0 "A model whose constructor throws" -- $fl describe throwing-model
expect 2 "provided by several packs" -- $fl validate "$good" --set loss.use=logistic
expect 0 "" -- $fl run "$good" --out "$work/run-std" --set loss.use=std:logistic -q
check "list, describe and a std-only run never load the fixture pack" test ! -e "$mark"
# Refused before any job starts: every component of every sweep point is built once at validation.
expect 2 "xor-small.toml:[0-9]+:[0-9]+: .*libfixture.so: model 'throwing-model'.*fixture model refuses to be built" -- \
  $fl run "$good" --out "$work/run-throw" --set model.use=throwing-model --set loss.use=std:logistic
check "a pipeline using the fixture pack loads it" test -e "$mark"
unset FEATURELAB_PLUGIN_PATH

# Never from the current directory: standing in the fixture pack's directory does not put it on the path.
rm -f "$mark"
pushd "$FIXTURE_DIR/fixture" >/dev/null
expect 3 "no component 'throwing-model'" -- $fl describe throwing-model
check "a pack in the current directory is not listed" bash -c "! $fl list model | grep -q crash-model"
popd >/dev/null
check "a pack in the current directory is not loaded" test ! -e "$mark"

# Every component of every sweep point is built at validation: a point whose parts do not fit is
# refused before any job starts, with the model's section and the point.
incompatible=$SOURCE_DIR/tests/data/incompatible-point.toml
expect 2 "incompatible-point.toml:14:1: model \\(std:two-layer\\): .*second_layer = \"balanced\" needs one output.* \\(at sweep point data.classes=10 model.second_layer=balanced\\)" -- \
  $fl validate "$incompatible"
expect 2 "incompatible-point.toml:14:1" -- $fl run "$incompatible" --out "$work/run-incompatible"
check "a refused plan starts no job" test ! -d "$work/run-incompatible/jobs"

# Patch data stored compressed (a repeated patch once, with its count) is refused to a model that would
# read every stored patch once: it would compute a different function, silently.
cat >"$work/collapsed.toml" <<'EOF'
[experiment]
name = "collapsed"
[data]
use = "multiview-patches"
classes = 3
patches = 12
collapse_noise = true
train = 20
test = 20
[model]
use = "patch-two-layer"
[loss]
use = "cross-entropy"
[optimizer]
use = "gd"
[train]
steps = 1
EOF
expect 0 "ok" -- $fl validate "$work/collapsed.toml"
expect 2 "collapsed.toml:10:1: model 'linear' reads every stored patch once, but the data stores repeated patches once" -- \
  $fl validate "$work/collapsed.toml" --set model.use=linear

# Input is bounded: a pipeline or base file must be a regular file (a directory, a device or a named
# pipe is refused before anything is read: /dev/zero once filled memory, a FIFO blocked for ever),
# and a sweep's size is refused before it is expanded.
mkdir "$work/adir"
mkfifo "$work/fifo"
expect 2 "adir: not a regular file \(a directory\)$" -- $fl validate "$work/adir"
expect 2 "/dev/zero: not a regular file \(a character device\)" -- timeout 10 $fl validate /dev/zero
for base in adir fifo /dev/zero; do
  { printf '[experiment]\nbase = ["%s"]\n' "$base"; sed 1,/^seeds/d "$good"; } >"$work/base-$(basename $base).toml"
  expect 2 "base-$(basename $base).toml:2:8: experiment.base: .*$base: not a regular file" -- \
    timeout 10 $fl validate "$work/base-$(basename $base).toml"
done
truncate -s 65M "$work/big.toml"  # sparse: no disk used
expect 2 "big.toml: is 68157440 bytes, more than the 64 MiB this file may have" -- $fl validate "$work/big.toml"
python3 - "$good" "$work/sweep1e7.toml" <<'PY'
import sys
text = open(sys.argv[1]).read() + "\n[sweep]\n"
for key in ["model.width", "optimizer.lr", "train.steps", "data.train", "data.test", "data.dim", "model.init_scale"]:
    text += '"%s" = [%s]\n' % (key, ", ".join(str(v) for v in range(1, 11)))
open(sys.argv[2], "w").write(text)
PY
expect 2 "sweep1e7.toml:[0-9]+:1: \[sweep\]: 10 × 10 × 10 × 10 × 10 × 10 × 10 values × 1 seed\(s\) make 10000000 jobs, more than the 100000 one run may plan; sweep fewer values" -- \
  timeout 10 $fl validate "$work/sweep1e7.toml"
# Small mistakes that used to run: a seed twice (one job twice, a fake replicate), an axis written
# twice (every point twice, the second axis winning), a probe name that is a path (tables written
# outside the run directory).
expect 2 "error: --set experiment.seeds: experiment.seeds: seed 0 is listed twice" -- \
  $fl validate "$good" --set 'experiment.seeds=[0, 0]'
{ cat "$good"; printf '[sweep]\n"model.width" = [8, 40]\nmodel.width = [16]\n'; } >"$work/two-axes.toml"
expect 2 "two-axes.toml:[0-9]+:[0-9]+: sweep.model.width: this axis is written twice" -- $fl validate "$work/two-axes.toml"
{ cat "$good"; printf '[sweep]\n"model.width" = [8, 40]\n'; } >"$work/one-axis.toml"
expect 0 "ok \(3 job\(s\): 3 sweep point\(s\)" -- $fl validate "$work/one-axis.toml" --set 'sweep.model.width=[8, 16, 32]'
expect 2 "sweep.model.width: the value 8 is listed twice" -- $fl validate "$work/one-axis.toml" --set 'sweep.model.width=[8, 8]'
expect 2 "probe.0.name: expected a name of letters, digits, '-' and '_'.*got \"/tmp/x\"" -- \
  $fl validate "$good" --set 'probe.0.name=/tmp/x'
# A model size whose parameter count overflows: refused naming the block, never a segfault.
expect 2 "model \(std:two-layer\): block 'W' of 4611686018427387904 × 3 parameters overflows the largest parameter count" -- \
  $fl run "$good" --out "$work/overflow" --set model.width=4611686018427387904 --set data.dim=3
# Running out of memory is named as such, with the component and step, not as "std::bad_alloc". (Not
# under AddressSanitizer, whose jobs get no address-space limit and whose malloc does not fail.)
if grep -qa __asan_init "$fl"; then
  echo "note: an AddressSanitizer build, so the out-of-memory message is not checked"
else
  expect 1 "failed: out of memory in probe.0 \(std:accuracy\) at step 0 \(the job's memory limit, --job-memory, or the machine's\)" -- \
    env FEATURELAB_PLUGIN_PATH="$FIXTURE_DIR/fixture" $fl run "$SOURCE_DIR/tests/data/crash.toml" --out "$work/oom" \
    --set 'sweep.model.mode=["leak"]' --set model.at_call=1 --job-memory 300
fi

# [experiment] does not change what a job computes: --resume with a raised timeout (to rerun the jobs
# that ran out of time) or a new name keeps the finished job instead of refusing the directory.
expect 0 "" -- $fl run "$good" --out "$work/resume-timeout" --set experiment.timeout=600 -q
expect 0 "1 already done" -- $fl run "$good" --out "$work/resume-timeout" --set experiment.timeout=1200 \
  --set experiment.name=renamed --resume

finish
