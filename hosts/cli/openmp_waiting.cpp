// Why: a parallel loop's threads that finish early wait for the next loop by spinning, 300,000 turns in
// libgomp's default, so that a loop a few microseconds later starts at once. When another process shares
// the machine (two runs on 2 cores, or a build beside a run), a spinning thread holds a core that the other
// process's work needs: two runs of the reduced Colored MNIST pipeline (`--jobs 2`) on 2 cores took 2.3–2.7× their
// time alone; with 10,000 spins 1.9–2.3× (bench/README.md, round 14), and alone no slower. A shorter spin, then
// sleep, keeps a step's back-to-back loops quick and gives the core back when the wait is long.
//
// libgomp reads the variable in its constructor, before main() (it is a dependency of the SDK); a
// variable set later is never read, and one set in .preinit_array is dropped when glibc sets up the
// environment. So the program runs itself again with it. Results are the same bits: how a thread waits
// changes no arithmetic.
#include "openmp_waiting.hpp"

#include <cstdlib>

#include <unistd.h>

namespace featurelab::cli {

#ifdef FEATURELAB_BRIEF_OPENMP_WAITS
namespace {
constexpr const char* kSpinCount = "GOMP_SPINCOUNT";
constexpr const char* kBriefSpin = "10000";
}  // namespace
#endif

void restart_with_brief_openmp_waits(char** argv) {
#ifndef FEATURELAB_BRIEF_OPENMP_WAITS
  (void)argv;  // a build without OpenMP: no libgomp to set
#else
  if (std::getenv(kSpinCount) != nullptr || std::getenv("OMP_WAIT_POLICY") != nullptr) return;  // the user's, or done
  if (::setenv(kSpinCount, kBriefSpin, 1) != 0) return;
  ::execv("/proc/self/exe", argv);
  ::unsetenv(kSpinCount);  // no /proc: run on with libgomp's default, and the environment as it was
#endif
}

}  // namespace featurelab::cli
