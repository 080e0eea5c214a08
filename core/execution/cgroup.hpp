// The control group of this process, where a scheduler or container runtime sets its limits
// (Slurm's --cpus-per-task and --mem, docker --cpus, Kubernetes limits, systemd slices). Both cgroup
// versions: v2 (one hierarchy, "0::/path" in /proc/self/cgroup) and v1 (one per controller).
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace featurelab::cgroup {

// The directories of this process's cgroup for a controller ("cpu", "memory"), its own first, then
// each parent up to the root of the hierarchy as mounted here; a limit set at any level applies.
// Empty when the controller is not mounted.
std::vector<std::filesystem::path> directories(const std::string& controller);

// CPUs of a quota: cgroup v2 cpu.max ("150000 100000" is 1.5; "max 100000" none), and v1
// cpu.cfs_quota_us / cpu.cfs_period_us (a quota of -1 is none).
std::optional<double> cpus_of_cpu_max(std::string_view cpu_max);
std::optional<double> cpus_of_cfs_quota(long long quota_us, long long period_us);

// The smallest CPU quota over this process's cgroup and its parents, none when none is set.
std::optional<double> cpu_quota();

// The value of `key` in a "key value" per line file (memory.events, memory.oom_control), -1 when absent.
long long counter(std::string_view text, std::string_view key);

// Processes the out-of-memory killer has killed in this process's memory cgroup (memory.events
// or memory.oom_control), -1 when the system does not say.
long long oom_kills_in_cgroup();
// Out-of-memory kills on the whole machine since boot (/proc/vmstat), -1 when unknown.
long long oom_kills_on_machine();

}  // namespace featurelab::cgroup
