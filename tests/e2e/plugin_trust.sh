#!/usr/bin/env bash
# Plugin trust: a library is loaded only when it and every directory above it are safe from other
# users (owned by you or root, not writable by group or others unless sticky with your entry below).
# A refused library is never listed, never shadows a trusted pack of the same name, is never loaded
# (not even by plugins doctor), and a run that needs it stops before any job with exit 3.
source "$(dirname "$0")/lib.sh"
fl=$FEATURELAB

cat >"$work/crash-model.toml" <<'TOML'
[experiment]
name = "trust"
seeds = [0]
[data]
use = "xor-clusters"
dim = 2
train = 50
test = 50
[model]
use = "crash-model"
[loss]
use = "std:logistic"
[optimizer]
use = "gd"
[train]
steps = 20
TOML
pipeline=$work/crash-model.toml

# A plugin directory holding a symlink to a library inside a directory anyone can write: the target's
# directory is what counts. The run stops at planning (exit 3), before its directory is made.
mkdir -p "$work/open" "$work/links"
cp "$FIXTURE_DIR"/fixture/libfixture.so "$work/open/"
cp "$FIXTURE_DIR"/fixture/libfixture.featurelab.json "$work/links/"
chmod 644 "$work/open/libfixture.so"
chmod 777 "$work/open"
ln -s "$work/open/libfixture.so" "$work/links/libfixture.so"
expect 3 "links/libfixture.so resolves to .*/open/libfixture.so, and the directory .*/open is writable by other users \(mode 777\).*chmod go-w" -- \
  $fl --plugin-path "$work/links" run "$pipeline" --out "$work/r-link"
check "a refused plugin stops the run before its directory is made" test ! -e "$work/r-link"
expect 3 "refused" -- $fl --plugin-path "$work/links" validate "$pipeline"
chmod 755 "$work/open"
expect 0 "" -- $fl --plugin-path "$work/links" run "$pipeline" --out "$work/r-link" -q

# A safe directory under a grandparent anyone can write: refused (anyone could swap the directory).
mkdir -p "$work/gp/plugins"
cp "$FIXTURE_DIR"/fixture/libfixture.{so,featurelab.json} "$work/gp/plugins/"
chmod 777 "$work/gp"
expect 3 "the directory .*/gp is writable by other users \(mode 777\)" -- \
  $fl --plugin-path "$work/gp/plugins" run "$pipeline" --out "$work/r-gp"
expect 3 "REFUSED .*gp/plugins/libfixture.so: refused: the directory .*/gp is writable" -- \
  $fl --plugin-path "$work/gp/plugins" plugins doctor
chmod 1777 "$work/gp"  # sticky, like /tmp: plugins/ is ours, so no one else can replace it
expect 0 "" -- $fl --plugin-path "$work/gp/plugins" run "$pipeline" --out "$work/r-gp" -q

# Another user's library dropped into a shared sticky directory (like /tmp/shared, mode 1777),
# declaring the fixture pack's name and sorting first: refused, not loaded, not shadowing.
if [[ $(id -u) -ne 0 ]] || ! command -v runuser >/dev/null || ! id nobody >/dev/null 2>&1; then
  echo "note: not root (or no runuser or no user nobody): another user's library in a shared directory is not checked here"
else
  shared=$(mktemp -d /tmp/featurelab-shared-XXXXXX)
  staged=$(mktemp -d /tmp/featurelab-staged-XXXXXX)
  trap 'rm -rf "$work" "$shared" "$staged"' EXIT
  chmod 1777 "$shared"
  chmod 755 "$staged"
  cp "$FIXTURE_DIR"/intruder/libfixture-intruder.so "$staged/aaa-intruder.so"
  cp "$FIXTURE_DIR"/intruder/libfixture-intruder.featurelab.json "$staged/aaa-intruder.featurelab.json"
  chmod 644 "$staged"/*
  runuser -u nobody -- cp "$staged/aaa-intruder.so" "$staged/aaa-intruder.featurelab.json" "$shared/"
  check "the intruder's library belongs to nobody" test "$(stat -c %U "$shared/aaa-intruder.so")" = nobody
  cp "$FIXTURE_DIR"/fixture/libfixture.{so,featurelab.json} "$shared/"
  export FEATURELAB_INTRUDER_MARK=$work/intruder-loaded FEATURELAB_FIXTURE_LOAD_MARK=$work/fixture-loaded
  expect 0 "aaa-intruder.so: refused: .*aaa-intruder.so belongs to nobody \(uid [0-9]+\), not to you or root.*chown" -- \
    $fl --plugin-path "$shared" run "$pipeline" --out "$work/r-shared"
  check "the intruder was not loaded by the run" test ! -e "$work/intruder-loaded"
  check "the run used the user's own fixture pack" test -e "$work/fixture-loaded"
  check "manifest.json records the user's library" grep -q "\"path\": \"$shared/libfixture.so\"" "$work/r-shared/manifest.json"
  check "manifest.json does not record the intruder" bash -c "! grep -q aaa-intruder '$work/r-shared/manifest.json'"
  expect 3 "REFUSED  $shared/aaa-intruder.so: refused: .*belongs to nobody" -- $fl --plugin-path "$shared" plugins doctor
  check "plugins doctor did not load the intruder" test ! -e "$work/intruder-loaded"
  # Alone, it provides crash-model to no one: the run stops at planning with the refusal.
  rm "$shared"/libfixture.*
  expect 3 "aaa-intruder.so: refused: .*belongs to nobody" -- $fl --plugin-path "$shared" run "$pipeline" --out "$work/r-alone"
  check "the intruder was not loaded when it was the only provider" test ! -e "$work/intruder-loaded"
  check "no run directory was made" test ! -e "$work/r-alone"
fi
finish
