// Before any job starts: every component of every sweep point is built once (the first seed; no
// data sampled, no training), so a component that does not fit the others (a model for 2 classes
// on 10, a probe without the feature it reads) is refused at `validate` and `run`, not by every job.
#pragma once

#include "engine/plan.hpp"

namespace featurelab {

// Builds in a child process, so a plugin that crashes while being built cannot take the caller
// down, under the jobs' memory limit when one is given (job_memory_mib, --job-memory): a component
// sized past it is refused here as in the job. Throws ConfigError with each problem, located at the
// component's section and naming the sweep points it occurs at.
void check_components(const RunPlan& plan, Catalog& catalog, std::size_t job_memory_mib = 0);

}  // namespace featurelab
