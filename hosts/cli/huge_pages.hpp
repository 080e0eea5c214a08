// Transparent huge pages for the process's heap, which glibc reads from GLIBC_TUNABLES only at start.
#pragma once

namespace featurelab::cli {

// Executes this program again, once, with glibc.malloc.hugetlb=1 added to GLIBC_TUNABLES, where the
// kernel gives transparent huge pages on request (its mode is "madvise"). Returns when nothing is to
// be done: the mode is "always" or "never", GLIBC_TUNABLES already names the tunable (=0 turns this
// off), or the exec failed; the program then runs on as it is.
void restart_with_huge_pages(char** argv);

}  // namespace featurelab::cli
