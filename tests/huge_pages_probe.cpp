// Prints the GLIBC_TUNABLES that featurelab's start (restart_with_huge_pages) leaves the process with,
// and the pid before and after it, for e2e/huge_pages.sh.
#include "../hosts/cli/huge_pages.hpp"

#include <cstdio>
#include <cstdlib>

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
  featurelab::cli::restart_with_huge_pages(argv);
  const char* tunables = std::getenv("GLIBC_TUNABLES");
  std::printf("%s %d %s\n", argv[1], static_cast<int>(::getpid()), tunables ? tunables : "(unset)");
  return 0;
}
