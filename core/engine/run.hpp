// A run: a validated pipeline executed seed by seed into a run directory.
//
//   OUT/pipeline.toml   the input file as written
//   OUT/config.toml     the operative configuration (every parameter used)
//   OUT/manifest.json   featurelab version and revision, host, every pack used (path, version,
//                       fingerprint)
//   OUT/jobs/seed-S/    config.toml, metrics.jsonl, tables/, summary.json, done
//   OUT/asserts.json    each [[assert]] with its values and verdict
#pragma once

#include "config/pipeline.hpp"

#include <atomic>
#include <filesystem>

namespace spdlog {
class logger;
}

namespace featurelab {

struct RunOptions {
  std::filesystem::path out;
  bool live_progress = false;
  spdlog::logger* log = nullptr;
  const std::atomic<bool>* stop = nullptr;
};

// Checks the [[assert]] expressions and the metrics they name before anything runs.
// Throws ConfigError.
void check_assertions(const Pipeline& pipeline);

// Returns the exit code (ExitCode).
int execute_run(const Pipeline& pipeline, Catalog& catalog, const RunOptions& options);

}  // namespace featurelab
