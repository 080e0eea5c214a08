#include "execution/allowed_cpus.hpp"

#include "execution/cgroup.hpp"

#include <sched.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cmath>

namespace featurelab {

int affinity_cpus() {
  // The mask grows until the kernel's fits (machines with more than 1024 CPUs).
  for (int size = 1024; size <= (1 << 20); size *= 2) {
    cpu_set_t* set = CPU_ALLOC(size);
    if (!set) break;
    const std::size_t bytes = CPU_ALLOC_SIZE(size);
    CPU_ZERO_S(bytes, set);
    const int got = ::sched_getaffinity(0, bytes, set);
    const int count = got == 0 ? CPU_COUNT_S(bytes, set) : 0;
    const bool too_small = got != 0 && errno == EINVAL;
    CPU_FREE(set);
    if (got == 0) return std::max(1, count);
    if (!too_small) break;
  }
  return static_cast<int>(std::max(1L, ::sysconf(_SC_NPROCESSORS_ONLN)));
}

int allowed_cpus() {
  int cpus = affinity_cpus();
  if (const auto quota = cgroup::cpu_quota()) cpus = std::min(cpus, static_cast<int>(std::ceil(*quota)));
  return std::max(1, cpus);
}

}  // namespace featurelab
