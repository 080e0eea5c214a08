// featurelab/core/run_directory.hpp over the run records (run_records.hpp) and the jobs' states (run_status.hpp).
#include <featurelab/core/run_directory.hpp>

#include "results/run_records.hpp"
#include "results/run_status.hpp"

namespace featurelab {

RunDirectory::RunDirectory(std::filesystem::path dir) : dir_(std::move(dir)) {
  const StoredRun stored = read_run_record(dir_);
  name_ = stored.name;
  job_count_ = stored.jobs.size();
}

RunStatus RunDirectory::status() const { return read_run_status(dir_); }

}  // namespace featurelab
