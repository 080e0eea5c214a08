// One job: a pipeline with one seed, run in this process, writing into its own directory:
// config.toml, metrics.jsonl, tables/, summary.json, and a `done` marker written last.
#pragma once

#include "kernel/config/pipeline.hpp"
#include "kernel/job/saved_params.hpp"

#include <atomic>
#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace spdlog {
class logger;
}

namespace featurelab {

class Catalog;

struct JobOptions {
  std::filesystem::path dir;
  std::int64_t seed = 0;
  spdlog::logger* log = nullptr;
  bool live_progress = false;
  const std::atomic<bool>* stop = nullptr;  // Ctrl-C
  struct ProgressSlot* slot = nullptr;      // worker mode: progress for the parent to draw
  std::string label;                        // for progress lines: "seed 2 model.width=10"
  SaveParams save_params;                   // parameter blocks saved to dir/params/ (saved_params.hpp)
  // `featurelab eval`: no training; the model's blocks are loaded from `load_params.dir` (checked against
  // `hashes`) and the probes measure them once, at `step`.
  struct LoadParams {
    std::filesystem::path dir;
    std::map<std::string, std::string> hashes;
    Index step = 0;
  };
  std::optional<LoadParams> load_params;
  // [model] init_from, resolved for this job (execution/init_params.hpp): the blocks it starts from, loaded and
  // checked like load_params' after the model's own initialisation, and the job they come from (its lineage,
  // recorded in summary.json "init_from").
  struct InitParams {
    LoadParams params;
    std::filesystem::path job_dir;
    std::string job_id;
    std::int64_t seed = 0;
  };
  std::optional<InitParams> init_params;
};

// Where a job's time went (summary.json "time"), so a probe that costs more than the training it measures is
// seen: making the components and sampling the data, each probe (by name) and how often it ran, and saving
// parameters. The rest of the job's seconds is training.
struct JobTime {
  double setup = 0.0;
  double saving = 0.0;
  std::map<std::string, double> probes;       // {"accuracy": 1.7}
  std::map<std::string, Index> evaluations;   // {"accuracy": 11}
};

struct JobResult {
  bool ok = false;
  bool interrupted = false;
  std::string pruned;  // why [prune] stopped it (ok is true then): summary.json status "pruned"
  std::string error;
  Index steps = 0;
  double seconds = 0.0;
  std::map<std::string, double> final_metrics;
  std::map<std::string, std::vector<std::pair<Index, double>>> history;
  std::map<std::string, std::string> saved_params;  // {"step000300/W.npy": sha256}
  Index metrics_lines = 0;     // what metrics.jsonl holds (summary.json "metrics_file")
  std::string metrics_sha256;
  JobTime time;
};

// Never throws for a failure inside the job (plugin error, divergence): it is reported in the
// result and summary.json. Throws only when the job directory cannot be written.
JobResult run_job(const Pipeline& pipeline, Catalog& catalog, const JobOptions& options);

}  // namespace featurelab
