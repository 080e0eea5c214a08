// The facade for hosts over a run directory on disk (run.hpp's layout): what it holds and the state of its jobs,
// read back without running anything.
//
//   const RunDirectory run("runs/p");
//   const RunStatus status = run.status();        // each job ok, failed, interrupted, running or unfinished
//   format_index_list(status.missing());         // "0-4,7": the jobs still to run (cluster.hpp)
#pragma once

#include <featurelab/core/job_state.hpp>

#include <cstddef>
#include <filesystem>
#include <string>
#include <vector>

namespace featurelab {

// One job of a run: its index in run.json, its state, and why it failed (summary.json's error).
struct JobStatus {
  std::size_t index = 0;
  JobState state = JobState::unfinished;
  std::string error;
};

struct RunStatus {
  std::string name;  // the pipeline's
  std::vector<JobStatus> jobs;
  // The indices of the jobs in `state`, ascending.
  std::vector<std::size_t> in(JobState state) const;
  // The jobs still to run: failed, interrupted, unfinished (not those running now), ascending.
  std::vector<std::size_t> missing() const;
};

class RunDirectory {
 public:
  // Throws Error when the directory holds no run (no readable run.json), naming it.
  explicit RunDirectory(std::filesystem::path dir);

  const std::filesystem::path& path() const { return dir_; }
  const std::string& name() const { return name_; }  // the pipeline's
  std::size_t job_count() const { return job_count_; }
  // Each job's state now: a job whose worker holds its lock is running.
  RunStatus status() const;

 private:
  std::filesystem::path dir_;
  std::string name_;
  std::size_t job_count_ = 0;
};

}  // namespace featurelab
