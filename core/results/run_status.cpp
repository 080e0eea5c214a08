#include "results/run_status.hpp"

#include "results/run_records.hpp"
#include "kernel/io/run_lock.hpp"

#include <nlohmann/json.hpp>

#include <fstream>

namespace featurelab {

namespace fs = std::filesystem;

std::vector<std::size_t> RunStatus::in(JobState state) const {
  std::vector<std::size_t> indices;
  for (const auto& job : jobs) {
    if (job.state == state) indices.push_back(job.index);
  }
  return indices;
}

std::vector<std::size_t> RunStatus::missing() const {
  std::vector<std::size_t> indices;
  for (const auto& job : jobs) {
    if (job.state != JobState::ok && job.state != JobState::pruned && job.state != JobState::running) indices.push_back(job.index);
  }
  return indices;
}

namespace {

// "failed" or "interrupted" with its error, from a summary.json that is whole; unfinished otherwise (none
// yet, or the space a starting job reserved for it).
JobStatus from_summary(const fs::path& dir, std::size_t index) {
  JobStatus status{index, JobState::unfinished, ""};
  std::ifstream in(dir / "summary.json");
  if (!in) return status;
  const auto summary = nlohmann::json::parse(in, nullptr, false);
  if (!summary.is_object() || !summary.contains("status")) return status;
  const auto state = recorded_state(summary.value("status", ""));
  if (state == JobState::interrupted || state == JobState::pruned) status.state = *state;
  if (state == JobState::failed) {
    status.state = JobState::failed;
    status.error = summary.value("error", "");
  }
  return status;
}

}  // namespace

RunStatus read_run_status(const fs::path& run_dir) {
  const StoredRun run = read_run_record(run_dir);
  RunStatus status;
  status.name = run.name;
  // `featurelab run` holds the run directory exclusively and runs its jobs unlocked; `featurelab job` holds
  // the run directory shared and each of its jobs' directories.
  const bool whole_run_running = DirectoryLock::held_elsewhere(run_dir, DirectoryLock::Mode::exclusive);
  for (const auto& spec : run.jobs) {
    const fs::path dir = run_dir / "jobs" / spec.dir;
    JobStatus job{spec.index, JobState::unfinished, ""};
    if (fs::exists(dir / "done")) {
      job.state = from_summary(dir, spec.index).state == JobState::pruned ? JobState::pruned : JobState::ok;
    } else if (DirectoryLock::held_elsewhere(dir)) {
      job.state = JobState::running;
    } else {
      job = from_summary(dir, spec.index);
      if (whole_run_running && job.state == JobState::unfinished && fs::exists(dir / "log.txt")) job.state = JobState::running;
    }
    status.jobs.push_back(job);
  }
  return status;
}

}  // namespace featurelab
