// Before any job starts: every component of every sweep point is built once (the first seed; no
// data sampled, no training), so a component that does not fit the others (a model for 2 classes
// on 10, a probe without the feature it reads) is refused at `validate` and `run`, not by every job.
#pragma once

#include "kernel/job/plan.hpp"

namespace featurelab {

// Without --job-timeout or experiment.timeout, the longest one sweep point's components may take to build: far
// beyond any real constructor or module import, short of a night lost to one that never returns.
inline constexpr double kComponentCheckSeconds = 300;

struct ComponentCheckLimits {
  double timeout = 0;           // seconds per sweep point (--job-timeout); 0: experiment.timeout, or kComponentCheckSeconds
  std::size_t memory_mib = 0;   // --job-memory; 0 = none
};

// Builds in a child process run as a worker is: in a process group of its own, killed with everything it started
// once it ends (a constructor's helper process holds nothing up), dying with its caller, under the jobs' memory
// limit (a component sized past it is refused here as in the job), within a time limit per sweep point (a
// constructor that never returns is named, with its plugin file), and stopped at once by Ctrl-C, SIGTERM or
// SIGHUP. Throws ConfigError with each problem, located at the component's section and naming the sweep points it
// occurs at; StoppedError when a stop signal came.
void check_components(const RunPlan& plan, Catalog& catalog, const ComponentCheckLimits& limits = {});

}  // namespace featurelab
