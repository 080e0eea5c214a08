#include "execution/saved_evaluation.hpp"

#include "kernel/config/pipeline_source.hpp"
#include "kernel/config/validate.hpp"
#include "kernel/job/job.hpp"
#include "results/run_records.hpp"
#include "execution/workers.hpp"
#include <featurelab/core/errors.hpp>
#include "kernel/text/names.hpp"

#include <nlohmann/json.hpp>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <fstream>
#include <map>
#include <set>

namespace featurelab {

namespace fs = std::filesystem;

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
  // It names jobs/X/eval/NAME in every job: a name is never a path ("../x", "/tmp/x" would write elsewhere, every job
  // to the same place).
  if (!is_word(name, "-_.") || name.front() == '.') {
    throw ConfigError({{request.name.empty() ? request.probes_file.string() : "--name",
                        "the evaluation's name " + shown_with_escapes(name) + " is not a name of letters, digits, '-', "
                        "'_' and '.' (not first): it names jobs/X/eval/NAME, and a name is never a path" +
                        (request.name.empty() ? "; give one with --name NAME" : "")}});
  }
  std::vector<std::size_t> indices = request.indices;
  if (indices.empty()) {
    for (const auto& spec : run.jobs) indices.push_back(spec.index);
  }
  // What each job's worker measures.
  struct Measure {
    std::size_t index;
    Index step;
    Pipeline pipeline;
    JobOptions options;
  };
  std::vector<Measure> measures;
  std::vector<std::size_t> todo;
  std::vector<std::string> labels;
  std::size_t measured = 0, failed = 0, without = 0;
  double pipeline_timeout = 0;  // the longest experiment.timeout of the jobs measured, as `run` takes it
  for (const std::size_t index : indices) {
    const JobSpec& spec = run.jobs.at(index);
    const fs::path job_dir = request.run_dir / "jobs" / spec.dir;
    std::map<std::string, std::string> files;
    try {
      files = recorded_saved_params(job_dir);
    } catch (const Error& e) {
      if (log) log->error("job {}: {}", index, e.what());
      ++failed;
      continue;
    }
    if (files.empty()) {
      ++without;
      continue;
    }
    const std::set<Index> steps = saved_steps(files);
    const Index step = request.step.value_or(*steps.rbegin());
    if (steps.count(step) == 0) {
      if (log) log->error("job {}: no parameters saved at step {} (saved: {})", index, step, saved_steps_text(steps));
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
    Measure m{index, step, validate_pipeline(source, catalog), {}};
    pipeline_timeout = std::max(pipeline_timeout, m.pipeline.timeout);
    m.options.dir = job_dir / "eval" / name;
    m.options.seed = spec.seed;
    m.options.load_params = JobOptions::LoadParams{job_dir / "params" / saved_step_dir(step), files, step};
    fs::create_directories(m.options.dir);
    todo.push_back(measures.size());
    labels.push_back("job " + std::to_string(index));
    measures.push_back(std::move(m));
  }
  // Each job in a worker process of its own, as in a run: a probe that crashes fails that job only.
  WorkerPoolOptions pool;
  pool.workers = std::max(1, request.jobs);
  pool.cores = pool.workers;
  pool.stop = request.stop;
  pool.log = log;
  // A probe that never returns, or a parameter file that never ends, is a job killed at its time limit.
  pool.job_timeout = request.job_timeout > 0 ? request.job_timeout : pipeline_timeout;
  pool.job_memory_mb = request.job_memory_mb;
  run_in_workers(
      todo, labels,
      [&](std::size_t i, ProgressSlot*) {
        const JobResult result = run_job(measures[i].pipeline, catalog, measures[i].options);
        return result.ok ? 0 : 1;
      },
      [&](std::size_t i, const WorkerExit& exit) {
        const Measure& m = measures[i];
        std::ifstream in(m.options.dir / "summary.json");
        const auto summary = nlohmann::json::parse(in, nullptr, false);
        // Status 0 is measured only with the evaluation's own ok record (an exit(0) in a probe ends it before).
        if (exit.ok && summary.is_object() && summary.value("status", "") == "ok") {
          ++measured;
          if (log) log->info("job {}: measured step {} into {}", m.index, m.step, m.options.dir.string());
          return true;
        }
        ++failed;
        const std::string why = summary.is_object() && summary.contains("error") ? summary.value("error", "")
                                : exit.ok ? "the worker process ended with exit status 0 before the evaluation finished "
                                            "(a probe that called exit() or os._exit()?)"
                                          : exit.reason;
        if (log) log->error("job {}: {}", m.index, why);
        return false;
      },
      pool);
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
