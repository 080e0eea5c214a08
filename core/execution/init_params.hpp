// [model] init_from resolved for one job: the source job (a run's job of this job's seed at the named sweep point,
// or the job named), the saved step (the one named, or the job's last) and the files its summary.json records.
// The blocks themselves are read and checked by the job (saved_params.hpp: sha256, number type, shape).
#pragma once

#include "kernel/config/pipeline.hpp"
#include "kernel/job/job.hpp"

#include <cstdint>

namespace featurelab {

// Throws Error naming the directory and what to do: no job of this seed or at that point (naming the points),
// several, a job that has not finished, saved nothing, or not at that step (naming the saved steps).
JobOptions::InitParams resolve_init_params(const InitSource& source, std::int64_t seed);

}  // namespace featurelab
