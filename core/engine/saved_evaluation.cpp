#include "engine/saved_evaluation.hpp"

#include "config/pipeline_source.hpp"
#include "config/validate.hpp"
#include "engine/job.hpp"
#include "engine/results.hpp"
#include "errors.hpp"

#include <nlohmann/json.hpp>
#include <spdlog/spdlog.h>

#include <fstream>
#include <map>
#include <set>

namespace featurelab {

namespace fs = std::filesystem;

namespace {

// The saved blocks a job's summary.json records, {"step000300/W.npy": sha256}; empty when it saved none.
std::map<std::string, std::string> recorded_params(const fs::path& job_dir) {
  std::ifstream in(job_dir / "summary.json");
  const auto summary = nlohmann::json::parse(in, nullptr, false);
  if (!summary.is_object() || !summary.contains("saved_params")) return {};
  return summary.at("saved_params").get<std::map<std::string, std::string>>();
}

// The steps those files are of: "step000300/W.npy" → 300.
std::set<Index> saved_steps(const std::map<std::string, std::string>& files) {
  std::set<Index> steps;
  for (const auto& [file, hash] : files) steps.insert(std::stoll(file.substr(4, file.find('/') - 4)));
  return steps;
}

std::string steps_text(const std::set<Index>& steps) {
  std::string text;
  for (const Index s : steps) text += (text.empty() ? "" : ", ") + std::to_string(s);
  return text;
}

}  // namespace

int evaluate_saved_parameters(const SavedEvaluation& request, Catalog& catalog, spdlog::logger* log) {
  const StoredRun run = read_run_record(request.run_dir);
  std::optional<PipelineSource> probes;
  if (!request.probes_file.empty()) {
    probes = load_pipeline(request.probes_file, {});
    for (auto&& [key, node] : probes->table) {
      if (key.str() != "probe") {
        throw ConfigError({{request.probes_file.string(), "a probes file holds [[probe]] tables only; found '" +
                                                              std::string(key.str()) + "'"}});
      }
    }
    if (!probes->table.contains("probe")) {
      throw ConfigError({{request.probes_file.string(), "no [[probe]] table: nothing to measure"}});
    }
  }
  const std::string name = !request.name.empty() ? request.name : probes ? request.probes_file.stem().string() : "probes";
  std::vector<std::size_t> indices = request.indices;
  if (indices.empty()) {
    for (const auto& spec : run.jobs) indices.push_back(spec.index);
  }
  std::size_t measured = 0, failed = 0, without = 0;
  for (const std::size_t index : indices) {
    const JobSpec& spec = run.jobs.at(index);
    const fs::path job_dir = request.run_dir / "jobs" / spec.dir;
    const auto files = recorded_params(job_dir);
    if (files.empty()) {
      ++without;
      continue;
    }
    const std::set<Index> steps = saved_steps(files);
    const Index step = request.step.value_or(*steps.rbegin());
    if (steps.count(step) == 0) {
      if (log) log->error("job {}: no parameters saved at step {} (saved: {})", index, step, steps_text(steps));
      ++failed;
      continue;
    }
    // The job's own pipeline, with the probes file's [[probe]] tables in place of its own and no assertions
    // (they name the run's probes).
    PipelineSource source = load_pipeline(job_dir / "config.toml", {});
    if (probes) {
      source.table.insert_or_assign("probe", *probes->table.get("probe"));
      // Paths relative to "the pipeline" (a Python probe's module) are the probes file's; the job's own are
      // absolute in its config.toml already.
      source.file = request.probes_file;
    }
    source.table.erase("assert");
    const Pipeline pipeline = validate_pipeline(source, catalog);
    JobOptions options;
    options.dir = job_dir / "eval" / name;
    options.seed = spec.seed;
    options.log = log;
    options.load_params = JobOptions::LoadParams{job_dir / "params" / saved_step_dir(step), files, step};
    fs::create_directories(options.dir);
    const JobResult result = run_job(pipeline, catalog, options);
    if (result.ok) {
      ++measured;
      if (log) log->info("job {}: measured step {} into {}", index, step, options.dir.string());
    } else {
      ++failed;
      if (log) log->error("job {}: {}", index, result.error);
    }
  }
  if (measured + failed == 0) {
    throw Error(request.run_dir.string() + ": no job saved its parameters; run it with --save-params final (or every:N)");
  }
  if (log) {
    log->info("{} job(s) measured, {} could not be{}", measured, failed,
              without ? ", " + std::to_string(without) + " saved no parameters" : std::string());
  }
  return failed > 0 ? kExitRunFailed : kExitOk;
}

}  // namespace featurelab
