#!/usr/bin/env bash
# Brief OpenMP waits: featurelab restarts itself once, as the same process, with GOMP_SPINCOUNT=10000, and
# libgomp reads that value (not its default 300000); a GOMP_SPINCOUNT or OMP_WAIT_POLICY of the user's is
# left as it is. OPENMP_WAITING_PROBE runs featurelab's start, prints "<pid before> <pid after>", then
# libgomp's settings.
source "$(dirname "$0")/lib.sh"
probe=$OPENMP_WAITING_PROBE

same_process() {  # the pid before and after the restart agree
  read -r before after _ <<<"$(head -n 1 <<<"$1")"
  [[ $before == "$after" ]]
}

out=$(env -u GOMP_SPINCOUNT -u OMP_WAIT_POLICY "$probe" 2>&1)
check "one process ($(head -n 1 <<<"$out"))" same_process "$out"
check "libgomp read the brief spin count" grep -q "GOMP_SPINCOUNT = '10000'" <<<"$out"
out=$(env -u OMP_WAIT_POLICY GOMP_SPINCOUNT=5 "$probe" 2>&1)
check "the user's GOMP_SPINCOUNT is kept" grep -q "GOMP_SPINCOUNT = '5'" <<<"$out"
out=$(env -u GOMP_SPINCOUNT OMP_WAIT_POLICY=active "$probe" 2>&1)
check "OMP_WAIT_POLICY=active is left alone" grep -q "GOMP_SPINCOUNT = '30000000000'" <<<"$out"

finish
