#include "execution/job_memory_limit.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cstdio>
#include <pthread.h>
#include <sys/resource.h>
#include <unistd.h>

namespace featurelab {

namespace {

// The stack a new thread gets (libgomp's too, unless OMP_STACKSIZE says otherwise): from
// RLIMIT_STACK, as glibc computes it.
std::uint64_t thread_stack_bytes() {
  pthread_attr_t attr;
  std::size_t bytes = 8 << 20;
  if (::pthread_attr_init(&attr) == 0) {
    ::pthread_attr_getstacksize(&attr, &bytes);
    ::pthread_attr_destroy(&attr);
  }
  return bytes;
}

}  // namespace

std::string job_memory_problem(std::int64_t mib) {
  if (mib < 0) return fmt::format("{} is not a size; give the limit of each job in MiB, or 0 for none", mib);
  if (mib > kMaxJobMemoryMiB) {
    return fmt::format("{} MiB is more than a memory limit can hold (at most {} MiB, 2^43); give a smaller value, or 0 for none",
                       mib, kMaxJobMemoryMiB);
  }
  return {};
}

std::uint64_t job_memory_limit_bytes(std::size_t mib, int threads) {
  const std::uint64_t extra_threads = static_cast<std::uint64_t>(std::max(1, threads) - 1);
  return (static_cast<std::uint64_t>(mib) << 20) + extra_threads * (thread_stack_bytes() + (1u << 20));
}

void limit_job_memory(std::size_t mib, int threads) {
  auto bytes = static_cast<rlim_t>(job_memory_limit_bytes(mib, threads));
  rlimit current{};
  // An unprivileged process cannot raise its hard limit: a tighter one set from outside stays.
  if (::getrlimit(RLIMIT_DATA, &current) == 0 && current.rlim_max != RLIM_INFINITY) bytes = std::min(bytes, current.rlim_max);
  const rlimit limit{bytes, bytes};
  ::setrlimit(RLIMIT_DATA, &limit);
}

double private_resident_mib(pid_t pid) {
  std::FILE* f = std::fopen(fmt::format("/proc/{}/statm", pid).c_str(), "r");
  if (!f) return 0;
  unsigned long long size = 0, resident = 0, shared = 0;
  const int got = std::fscanf(f, "%llu %llu %llu", &size, &resident, &shared);
  std::fclose(f);
  if (got != 3 || shared > resident) return 0;
  return double(resident - shared) * double(::sysconf(_SC_PAGESIZE)) / double(1 << 20);
}

}  // namespace featurelab
