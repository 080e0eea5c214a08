// Reading the limits a scheduler sets on this process's cgroup (execution/cgroup.hpp) and the CPUs
// that follow from them (execution/allowed_cpus.hpp).
#include "execution/allowed_cpus.hpp"
#include "execution/cgroup.hpp"

#include <catch2/catch.hpp>

#include <thread>

using namespace featurelab;

TEST_CASE("a cgroup v2 cpu.max gives the CPUs of its quota or none") {
  CHECK(cgroup::cpus_of_cpu_max("200000 100000\n") == Approx(2.0));
  CHECK(cgroup::cpus_of_cpu_max("150000 100000") == Approx(1.5));
  CHECK(cgroup::cpus_of_cpu_max("50000 100000") == Approx(0.5));
  CHECK_FALSE(cgroup::cpus_of_cpu_max("max 100000\n"));
  CHECK_FALSE(cgroup::cpus_of_cpu_max(""));
  CHECK_FALSE(cgroup::cpus_of_cpu_max("garbage"));
}

TEST_CASE("a cgroup v1 CFS quota gives the CPUs of its quota or none") {
  CHECK(cgroup::cpus_of_cfs_quota(300000, 100000) == Approx(3.0));
  CHECK_FALSE(cgroup::cpus_of_cfs_quota(-1, 100000));  // no quota
  CHECK_FALSE(cgroup::cpus_of_cfs_quota(100000, 0));
}

TEST_CASE("a counter is read from a key-value file such as memory.events") {
  const char* events = "low 0\nhigh 0\nmax 12\noom 2\noom_kill 1\noom_group_kill 0\n";
  CHECK(cgroup::counter(events, "oom_kill") == 1);
  CHECK(cgroup::counter(events, "oom") == 2);
  CHECK(cgroup::counter("oom_kill_disable 0\nunder_oom 0\noom_kill 7\n", "oom_kill") == 7);
  CHECK(cgroup::counter(events, "absent") == -1);
}

TEST_CASE("the allowed CPUs are at least one and at most the affinity mask") {
  const int affinity = affinity_cpus();
  CHECK(affinity >= 1);
  CHECK(allowed_cpus() >= 1);
  CHECK(allowed_cpus() <= affinity);
  // The cgroup quota, where one is set, only lowers it.
  if (const auto quota = cgroup::cpu_quota()) CHECK(allowed_cpus() <= static_cast<int>(*quota) + 1);
}
