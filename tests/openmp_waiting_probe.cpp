// Runs featurelab's start (restart_with_brief_openmp_waits), then prints the pid before and after it and
// the spin count libgomp read (omp_display_env's GOMP_SPINCOUNT line), for e2e/openmp_waiting.sh.
#include "../hosts/cli/openmp_waiting.hpp"

#include <omp.h>

#include <cstdio>

#include <unistd.h>

int main(int argc, char** argv) {
  // The pid the caller started is passed along the restart, so the second image can show it is the same process.
  const char* first_pid = argc > 1 ? argv[1] : nullptr;
  if (!first_pid) {
    static char pid[32];
    std::snprintf(pid, sizeof pid, "%d", static_cast<int>(::getpid()));
    static char* with_pid[] = {argv[0], pid, nullptr};
    argv = with_pid;
  }
  featurelab::cli::restart_with_brief_openmp_waits(argv);
  std::printf("%s %d\n", argv[1], static_cast<int>(::getpid()));
  std::fflush(stdout);
  omp_display_env(1);  // libgomp's settings as it read them at start, to stderr or stdout
  return 0;
}
