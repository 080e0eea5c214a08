// A run: the jobs of a plan executed in worker processes into a run directory.
//
//   OUT/pipeline.toml   the input file as written
//   OUT/config.toml     the operative configuration of the first sweep point
//   OUT/run.json        featurelab version, sweep axes, and every job: index, id, seed, point, dir
//   OUT/manifest.json   featurelab version and revision, host, every pack used (path, version,
//                       fingerprint)
//   OUT/jobs/NNNN-ID/   config.toml, metrics.jsonl, tables/, summary.json, log.txt, done (last)
//   OUT/summary.csv     per sweep point and metric: n, mean, std, min, max over seeds
//   OUT/asserts.json    each [[assert]] with its values and verdict
//
// Re-running into the same directory (or --resume) skips finished jobs and reruns the others.
// OUT/.lock keeps a second writer out (run_lock.hpp).
#pragma once

#include "execution/workers.hpp"

#include "kernel/job/plan.hpp"
#include "results/run_assertions.hpp"

#include <atomic>
#include <filesystem>

namespace spdlog {
class logger;
}

namespace featurelab {

struct RunOptions {
  std::filesystem::path out;
  int jobs = 1;                    // worker processes
  int cores = 0;                   // threads shared by the running jobs once none waits; 0 = jobs
  bool live_progress = false;
  bool prepare_only = false;       // write the directory, run nothing
  double job_timeout = 0;          // seconds; 0 = none
  std::size_t job_memory_mb = 0;   // per worker; 0 = none
  spdlog::logger* log = nullptr;
  const std::atomic<bool>* stop = nullptr;  // stop_requested_flag(): the workers' handlers set it
  SaveParams save_params;          // recorded in run.json, so `featurelab job` saves the same
};

// The worker pool of a run's jobs: the options' workers, cores, limits (the pipeline's timeout unless
// --job-timeout), stop flag and log.
WorkerPoolOptions worker_pool_options(const RunOptions& options, double pipeline_timeout);

// Returns the exit code (ExitCode; 128 + the signal when a stop signal ended it). Throws
// BusyError when another process holds the directory.
int execute_run(const RunPlan& plan, Catalog& catalog, const RunOptions& options);

// `featurelab collect RUN...`: rebuilds summary.csv and asserts.json from the jobs on disk; with
// several runs, joins them into the first's directory... (see collect_runs).
int collect_runs(const std::vector<std::filesystem::path>& runs, const std::filesystem::path& out,
                 Catalog& catalog, spdlog::logger* log);

}  // namespace featurelab
