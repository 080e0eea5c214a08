#!/usr/bin/env bash
# Huge pages: where the kernel gives transparent huge pages on request (mode "madvise"), featurelab
# restarts itself once, as the same process, with glibc.malloc.hugetlb=1 added to GLIBC_TUNABLES and
# the user's other tunables kept; a GLIBC_TUNABLES that names the tunable is left alone (=0 turns it
# off), and in the other modes nothing changes. HUGE_PAGES_PROBE runs featurelab's start and prints
# "<pid before> <pid after> <GLIBC_TUNABLES>".
source "$(dirname "$0")/lib.sh"
probe=$HUGE_PAGES_PROBE
mode=$(cat /sys/kernel/mm/transparent_hugepage/enabled 2>/dev/null || echo none)

same_process() {  # the pid before and after the restart agree
  read -r before after _ <<<"$1"
  [[ $before == "$after" ]]
}

out=$(env -u GLIBC_TUNABLES "$probe")
check "one process ($out)" same_process "$out"
out_kept=$(GLIBC_TUNABLES=glibc.malloc.arena_max=2 "$probe")
if [[ $mode == *"[madvise]"* ]]; then
  check "the tunable is set ($out)" grep -q ' glibc.malloc.hugetlb=1$' <<<"$out"
  check "the user's tunables are kept ($out_kept)" grep -q ' glibc.malloc.arena_max=2:glibc.malloc.hugetlb=1$' <<<"$out_kept"
else
  check "mode '$mode': nothing set ($out)" grep -q ' (unset)$' <<<"$out"
  check "mode '$mode': the user's tunables as they were ($out_kept)" grep -q ' glibc.malloc.arena_max=2$' <<<"$out_kept"
fi
out_off=$(GLIBC_TUNABLES=glibc.malloc.hugetlb=0 "$probe")
check "hugetlb=0 is left alone ($out_off)" grep -q ' glibc.malloc.hugetlb=0$' <<<"$out_off"

finish
