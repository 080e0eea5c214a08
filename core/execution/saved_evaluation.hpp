// `featurelab eval RUN`: the probes measured again on each job's saved parameters (run --save-params), without
// training: the job's data and model are built from its config.toml and seed as in the run (each job in a
// worker process of its own), the blocks loaded and checked (saved_params.hpp), and the probes of a probes file (its [[probe]] tables), or the job's own, write
// jobs/X/eval/<name>/ (metrics.jsonl, tables/, summary.json), as a job writes its directory.
#pragma once

#include <featurelab/core/catalog.hpp>

#include <featurelab/types.hpp>

#include <atomic>
#include <cstddef>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace spdlog {
class logger;
}

namespace featurelab {

struct SavedEvaluation {
  std::filesystem::path run_dir;
  std::filesystem::path probes_file;  // [[probe]] tables; empty: each job's own probes
  std::string name;                   // jobs/X/eval/<name>; empty: the probes file's stem, or "probes"
  std::optional<Index> step;          // a saved step; none: each job's last saved step
  std::vector<std::size_t> indices;   // empty: every job that saved parameters
  int jobs = 1;                       // jobs measured at once, each in a worker process
  double job_timeout = 0;             // seconds per job (--job-timeout); 0: the job's experiment.timeout, if any
  std::size_t job_memory_mb = 0;      // --job-memory; 0 = none
  const std::atomic<bool>* stop = nullptr;
};

// Returns the exit code: 0 when every job measured, 1 when one could not (a file refused, a probe failed: said
// per job). Throws ConfigError for a malformed probes file, PluginError, or Error when no job saved parameters.
int evaluate_saved_parameters(const SavedEvaluation& request, Catalog& catalog, spdlog::logger* log);

}  // namespace featurelab
