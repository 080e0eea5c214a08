// Whether a run's datasets fit in the machine, checked before anything is allocated: a pipeline
// asking for n = 1e9 samples of dimension 1e4 gets the estimate and the fix, not the OOM killer.
#pragma once

#include <string>

namespace featurelab {

// The physical memory of the machine in bytes (0 when the system will not say).
double machine_memory_bytes();

// What this process may commit: its RLIMIT_DATA (a job's --job-memory, job_memory_limit.hpp) where one
// is set, at most the machine's memory; 0 when neither is known. Components see it as Context::memory_bytes.
double process_memory_budget_bytes();

// Empty when train + test samples of this dimension fit in 80 % of the machine's memory;
// otherwise the message, with the estimate, the machine's size and what to lower.
std::string dataset_memory_problem(double train, double test, double dim);

}  // namespace featurelab
