// The CPUs this process may use, which on a shared machine is not the machine's count: its
// affinity mask (taskset, Slurm's --cpus-per-task, a cpuset) further capped by a cgroup CPU quota
// (docker --cpus, Kubernetes limits). Workers and the threads handed to jobs follow it: more
// would only take turns on the same CPUs.
#pragma once

namespace featurelab {

// CPUs in this process's affinity mask (at least 1).
int affinity_cpus();

// affinity_cpus(), capped by the cgroup CPU quota rounded up; at least 1.
int allowed_cpus();

}  // namespace featurelab
