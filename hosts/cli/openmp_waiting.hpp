// How OpenMP's idle threads wait, which libgomp reads from GOMP_SPINCOUNT only when a process starts.
#pragma once

namespace featurelab::cli {

// Executes this program again, once, with GOMP_SPINCOUNT=10000 (libgomp's default is 300000 spins before
// a waiting thread sleeps). Returns when nothing is to be done: GOMP_SPINCOUNT or OMP_WAIT_POLICY is set
// (the user's choice is kept), or the exec failed; the program then runs on as it is.
void restart_with_brief_openmp_waits(char** argv);

}  // namespace featurelab::cli
