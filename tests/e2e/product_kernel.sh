#!/usr/bin/env bash
# The kernel of the blocked products (featurelab/product_kernel.hpp) is recorded and kept: `--version` names it
# and why; a run records it in manifest.json and in each job's provenance; a run taken up again, a job of a
# prepared run and `featurelab eval` use the recorded one, whatever this process would choose; asking for
# another, or for a kernel that does not exist or is not in the build, is refused with the fix.
source "$(dirname "$0")/lib.sh"
fl=$FEATURELAB
sweep=$SOURCE_DIR/tests/data/sweep.toml
unset FEATURELAB_PRODUCT_KERNEL

expect 0 "products: (eigen|blis-serial): " -- $fl --version
expect 0 "products: eigen: FEATURELAB_PRODUCT_KERNEL=eigen" -- env FEATURELAB_PRODUCT_KERNEL=eigen $fl --version
expect 2 "FEATURELAB_PRODUCT_KERNEL: \"mkl\" is no product kernel; use eigen or blis" -- \
  env FEATURELAB_PRODUCT_KERNEL=mkl $fl run "$sweep" --out "$work/mkl"
check "a refused kernel leaves no run behind" test ! -e "$work/mkl/run.json"
blis=0
$fl --version | grep -q "products: blis-serial" && blis=1
env FEATURELAB_PRODUCT_KERNEL=blis $fl --version | grep -q "products: blis-serial" && blis=1

# A run started on Eigen's kernel records it ...
expect 0 "" -- env FEATURELAB_PRODUCT_KERNEL=eigen $fl run "$sweep" --out "$work/run" -q
check "manifest.json records the kernel and why" \
  bash -c "jq -e '.product_kernel.kernel == \"eigen\" and (.product_kernel.why | test(\"FEATURELAB_PRODUCT_KERNEL=eigen\"))' '$work/run/manifest.json' >/dev/null"
check "so does each job's provenance" \
  bash -c "for s in '$work'/run/jobs/*/summary.json; do jq -e '.provenance.product_kernel.kernel == \"eigen\"' \"\$s\" >/dev/null || exit 1; done"
# ... and keeps it when taken up again without the variable: a job rerun there says whose choice it was.
rm "$(ls -d "$work"/run/jobs/0001-*)/done"
expect 0 "" -- $fl run "$sweep" --out "$work/run" -q
check "the resumed job ran on the run's kernel" \
  bash -c "jq -e '.provenance.product_kernel.kernel == \"eigen\" and (.provenance.product_kernel.why | test(\"the run.s\"))' $(ls -d "$work"/run/jobs/0001-*)/summary.json >/dev/null"
check "... and the manifest still names it, with the reason the run started with" \
  bash -c "jq -e '.product_kernel.kernel == \"eigen\" and (.product_kernel.why | test(\"^the run.s .*FEATURELAB_PRODUCT_KERNEL=eigen\"))' '$work/run/manifest.json' >/dev/null"
rm "$(ls -d "$work"/run/jobs/0001-*)/done"
expect 0 "" -- $fl run "$sweep" --out "$work/run" -q
check "taken up twice, the reason is carried once" \
  bash -c "jq -e '.product_kernel.why | test(\"the run.s.*the run.s\") | not' '$work/run/manifest.json' >/dev/null"
# A prepared run's jobs, run alone, take the kernel it was prepared with.
expect 0 "prepared" -- env FEATURELAB_PRODUCT_KERNEL=eigen $fl run "$sweep" --out "$work/prep" --prepare
expect 0 "job 2 done" -- $fl job "$work/prep" --index 2
check "featurelab job: the job ran on the prepared run's kernel" \
  bash -c "jq -e '.provenance.product_kernel.kernel == \"eigen\"' $(ls -d "$work"/prep/jobs/0002-*)/summary.json >/dev/null"

if [[ $blis -eq 1 ]]; then
  # Asking for the other kernel in a run that used one is refused, naming both and the fix.
  expect 2 "ran their products on eigen, and FEATURELAB_PRODUCT_KERNEL=blis asks for blis-serial: one run never mixes two kernels' roundings; unset it, or use another --out" -- \
    env FEATURELAB_PRODUCT_KERNEL=blis $fl run "$sweep" --out "$work/run"
  expect 2 "one run never mixes two kernels" -- env FEATURELAB_PRODUCT_KERNEL=blis $fl job "$work/prep" --index 3
  expect 0 "" -- env FEATURELAB_PRODUCT_KERNEL=blis $fl run "$sweep" --out "$work/blis" -q
  check "a run on BLIS records it" bash -c "jq -e '.product_kernel.kernel == \"blis-serial\"' '$work/blis/manifest.json' >/dev/null"
else
  # A build without BLIS cannot run a kernel it lacks, nor take up a run that used it.
  expect 2 "this build has no BLIS" -- env FEATURELAB_PRODUCT_KERNEL=blis $fl run "$sweep" --out "$work/blis"
  jq '.product_kernel.kernel = "blis-serial"' "$work/prep/manifest.json" >"$work/m.json" && mv "$work/m.json" "$work/prep/manifest.json"
  expect 2 "ran their products on blis-serial, which this build does not have" -- $fl job "$work/prep" --index 3
fi

echo "$checks checks, $failures failures"
[[ $failures -eq 0 ]]
