// How a job names running out of memory: std::bad_alloc's own text ("std::bad_alloc") says neither
// that memory ran out nor which limit, so every component wrapper reports it with this instead.
#pragma once

#include <string>

namespace featurelab {

// "out of memory in probe.0 (std:accuracy) at step 0 (the job's memory limit, --job-memory, or the
// machine's)"; with where empty, "out of memory (the job's memory limit, ...)".
std::string out_of_memory_in(const std::string& where);

}  // namespace featurelab
