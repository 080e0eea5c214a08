#!/usr/bin/env bash
# Networks composed of layers in TOML: a pipeline runs; validate refuses a layer that does not fit its
# input naming both layers and their lines, a misspelt layer key with did-you-mean, a network past the job's
# memory naming its largest layer, before any job; --set
# and [sweep] reach layer keys; describe and list document layers; train.check_gradient fails a job
# whose backward pass is wrong, naming the block and coordinates.
source "$(dirname "$0")/lib.sh"
fl=$FEATURELAB
example=$SOURCE_DIR/plugins/std/pipelines/xor-network.toml

expect 0 "3 job\(s\)" -- $fl validate "$example"
expect 0 "assert PASS  accuracy.test >= 0.95" -- $fl run "$example" --out "$work/example" --set 'experiment.seeds=[0]' \
  --set train.steps=200
check "the operative configuration writes every layer with its parameters" \
  grep -q "init = 'fan-in'" "$work/example/config.toml"

# Shapes that do not fit: refused by validate, before any job, naming both layers and the lines.
expect 2 "model.layer.2 \(std:residual, at .*xor-network.toml:19:1\).*shape from 64 features \(flat\) to 32.*model.layer.1 \(std:activation, at .*xor-network.toml:17:1\)" -- \
  $fl validate "$example" --set model.layer.2.layers.1.out=32
expect 2 "model.layer.0.otu: unknown parameter of layer 'linear'; did you mean 'out'" -- \
  $fl validate "$example" --set model.layer.0.otu=5
expect 2 "model.layer.3.use: no layer 'linaer'; did you mean 'linear'" -- $fl validate "$example" --set model.layer.3.use=linaer
expect 2 "model.layer.0.out: expected an integer >= 1" -- $fl validate "$example" --set model.layer.0.out=0
expect 2 "model.layer.1.activation: use = \"tanh\" names the activation already" -- \
  $fl validate "$example" --set model.layer.1.activation=relu
expect 2 "model.layer.1 \(std:linear.*linear takes flat inputs or sequences, not an image.*put a flatten layer before it" -- \
  $fl validate "$example" --set 'model.layer=[{use="conv2d", channels=2, in_channels=1, height=2}, {use="linear"}]'

# A network too large for the job's memory: refused before any job, naming its largest layer and its line
# (2e5 × 2e5 weights: 640 GB with their gradient and two moments, past any machine this runs on), and with
# --job-memory 64, a network of 16.8 million parameters (269 MB at four floats each) likewise.
expect 2 "past the .* GiB this job may use.*Largest: model.layer.2.layers.1 \(std:linear, at .*xor-network.toml:21[^)]*\) with 4e\+10 parameters" -- \
  $fl validate "$example" --set model.layer.0.out=200000 --set model.layer.2.layers.1.out=200000
expect 2 "1\.68[0-9]*e\+07 parameters.*past the 0\.06[0-9]* GiB" -- $fl run "$example" --out "$work/big" --job-memory 64 \
  --set model.layer.0.out=4096 --set model.layer.2.layers.1.out=4096 --set 'assert=[]'
check "nothing ran" bash -c "! ls '$work'/big/jobs/*/summary.json 2>/dev/null"

# A layer key in a [sweep]: one job per activation, each job's config with its own.
expect 0 "2 job\(s\) \(2 sweep point\(s\)" -- $fl run "$example" --out "$work/sweep" --set 'experiment.seeds=[0]' \
  --set train.steps=20 --set 'sweep."model.layer.1.use"=["tanh", "gelu"]' --set 'assert=[]'
check "the sweep's activations reach the layers" bash -c "grep -l \"activation = 'gelu'\" '$work'/sweep/jobs/*/config.toml | wc -l | grep -qx 1"

# Layers are documented like components.
expect 0 "layer linear .*pack std" -- $fl describe linear
expect 0 "residual +std" -- $fl list layer
expect 0 "layer *components" -- $fl describe network

# Every layer's output is a hook point, for hook-reading components (the nuclear-norm regularizer here).
expect 0 "" -- $fl run "$example" --out "$work/hook" --set 'experiment.seeds=[0]' --set train.steps=5 --set 'assert=[]' \
  --set 'regularizer=[{use="nuclear-norm", hook="2", lambda=0.001}]'
expect 2 "hook = \"hidden.post\" is not a hook point of the model; it has: 0, 1, 2, 2.0" -- $fl run "$example" --out "$work/nohook" --set 'experiment.seeds=[0]' \
  --set train.steps=5 --set 'assert=[]' --set 'regularizer=[{use="nuclear-norm", hook="hidden.post", lambda=0.001}]'

# A wrong backward pass: every job ok without the check, failed with it, naming the block and coordinate.
crash=$SOURCE_DIR/tests/data/crash.toml
export FEATURELAB_PLUGIN_PATH=$FIXTURE_DIR/fixture
expect 0 "1 ok" -- $fl run "$crash" --out "$work/wrong" --set 'sweep={}' --set model.mode=wrong-gradient
expect 1 "0 ok" -- $fl run "$crash" --out "$work/checked" --set 'sweep={}' --set model.mode=wrong-gradient \
  --set train.check_gradient=true
check "the failed job names the block and coordinate" \
  grep -q "train.check_gradient.*block w.*parameter w(0,1)" "$work"/checked/jobs/*/summary.json
expect 0 "1 ok" -- $fl run "$crash" --out "$work/right" --set 'sweep={}' --set train.check_gradient=true

# A third party's layer with a wrong backward pass: its network trains, every job ok; the check of the first
# batch names the block the wrong input gradient flows into, and the pack's contract checks name the layer.
export FEATURELAB_PLUGIN_PATH=$FIXTURE_DIR/sloppy
sloppy=(--set 'experiment.seeds=[0]' --set train.steps=5 --set 'assert=[]'
        --set 'model.layer=[{use="linear", out=4}, {use="sloppy-square"}, {use="linear"}]')
expect 0 "1 ok" -- $fl run "$example" --out "$work/sloppy" "${sloppy[@]}"
expect 1 "0 ok" -- $fl run "$example" --out "$work/sloppy-checked" "${sloppy[@]}" --set train.check_gradient=true
check "the check names the block below the wrong layer" grep -q "block 0.W" "$work"/sloppy-checked/jobs/*/summary.json
expect 1 "layer sloppy:sloppy-square" -- $fl plugins check sloppy
expect 3 "no usable pack 'nope'" -- $fl plugins check nope

finish
