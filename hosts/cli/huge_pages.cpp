// Why: a job's large matrices (a 50000×600 activation is 120 MB) are mmap'ed by malloc in 4 KiB pages,
// so every new buffer costs a page fault per 4 KiB; on a virtual machine those faults were a quarter of
// a feature-emergence job's time (bench/README.md, round 6). With glibc.malloc.hugetlb=1, malloc asks
// for transparent huge pages (2 MiB) for what it maps. Results are the same bits: where memory lies
// changes no arithmetic (Eigen aligns its buffers itself).
#include "huge_pages.hpp"

#include <cstdlib>
#include <fstream>
#include <string>

#include <unistd.h>

namespace featurelab::cli {

namespace {
constexpr const char* kTunables = "GLIBC_TUNABLES";
constexpr const char* kHugePages = "glibc.malloc.hugetlb=1";
}  // namespace

void restart_with_huge_pages(char** argv) {
  const char* current = std::getenv(kTunables);
  const std::string tunables = current ? current : "";
  if (tunables.find("glibc.malloc.hugetlb") != std::string::npos) return;  // set by the user, or done
  std::ifstream mode_file("/sys/kernel/mm/transparent_hugepage/enabled");
  std::string mode;
  std::getline(mode_file, mode);
  if (mode.find("[madvise]") == std::string::npos) return;
  const std::string wanted = tunables.empty() ? kHugePages : tunables + ":" + kHugePages;
  if (::setenv(kTunables, wanted.c_str(), 1) != 0) return;
  ::execv("/proc/self/exe", argv);
  // No /proc: run on with 4 KiB pages, and the environment as it was.
  if (current) {
    ::setenv(kTunables, tunables.c_str(), 1);
  } else {
    ::unsetenv(kTunables);
  }
}

}  // namespace featurelab::cli
