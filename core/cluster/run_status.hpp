// Where each job of a run directory stands, read from its files and locks without disturbing a running
// process: what `featurelab status` prints, and what `featurelab submit` resubmits.
#pragma once

#include "engine/job_state.hpp"

#include <cstddef>
#include <filesystem>
#include <string>
#include <vector>

namespace featurelab {

struct JobStatus {
  std::size_t index = 0;
  JobState state = JobState::unfinished;
  std::string error;  // why it failed, from its summary.json
};

struct RunStatus {
  std::string name;
  std::vector<JobStatus> jobs;
  // The indices in `state`, ascending.
  std::vector<std::size_t> in(JobState state) const;
  // The jobs still to run: failed, interrupted and unfinished (running ones are not).
  std::vector<std::size_t> missing() const;
};

// A job is running while another process holds its lock (`featurelab job`), or, while a `featurelab run` holds
// the run directory, once it has a log; done once its `done` marker exists; otherwise as its summary.json says
// (failed, interrupted), or unfinished. Throws Error when RUN is not a run directory.
RunStatus read_run_status(const std::filesystem::path& run_dir);

}  // namespace featurelab
