// One run directory as `featurelab serve` follows it while its jobs run: each job's state (done, failed with its
// reason, running while a process holds it, unfinished) and its metrics.jsonl, read incrementally: each refresh reads
// only the bytes appended since the last one (whole lines; a line being written is read next time), and a finished
// job's files are not read again. Not thread-safe: the server holds a lock around each use.
#pragma once

#include "results/run_records.hpp"

#include <featurelab/core/job_state.hpp>

#include <cstdint>
#include <filesystem>
#include <map>
#include <set>
#include <string>
#include <vector>

namespace featurelab {

struct WatchedJob {
  JobSpec spec;
  JobState state = JobState::unfinished;
  std::string reason;         // a failed job's error, a pruned job's reason
  std::string init_from;      // [model] init_from: the job its weights came from, "RUN/jobs/JOB step N"
  Index step = -1;            // the last step it recorded
  std::uintmax_t offset = 0;  // bytes of metrics.jsonl read (whole lines)
  std::map<std::string, std::vector<std::pair<Index, double>>> history;
  bool settled = false;       // finished and read whole: never read again
};

class RunWatch {
 public:
  // Throws featurelab::Error when `dir` is not a run directory (naming it).
  explicit RunWatch(std::filesystem::path dir);

  // Reads what changed since the last call. A file that cannot be read leaves its job as it was (an error in
  // `problem()`), never an exception: a run being written or damaged is shown as far as it can be.
  void refresh();

  const std::filesystem::path& dir() const { return dir_; }
  const StoredRun& run() const { return run_; }
  const std::vector<WatchedJob>& jobs() const { return jobs_; }
  const std::set<std::string>& metrics() const { return metrics_; }
  Index total_steps() const { return total_steps_; }  // the configuration's train.steps, or -1
  const std::string& problem() const { return problem_; }

 private:
  void read_metrics(WatchedJob& job);
  void read_state(WatchedJob& job, bool whole_run_running);

  std::filesystem::path dir_;
  StoredRun run_;
  std::vector<WatchedJob> jobs_;
  std::set<std::string> metrics_;
  Index total_steps_ = -1;
  std::string problem_;
};

}  // namespace featurelab
