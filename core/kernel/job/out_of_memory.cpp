#include "kernel/job/out_of_memory.hpp"

namespace featurelab {

std::string out_of_memory_in(const std::string& where) {
  return "out of memory" + (where.empty() ? std::string() : " in " + where) +
         " (the job's memory limit, --job-memory, or the machine's)";
}

}  // namespace featurelab
