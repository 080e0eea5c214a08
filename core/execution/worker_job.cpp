#include "execution/worker_job.hpp"

#include "execution/init_params.hpp"

#include "kernel/job/job.hpp"
#include "kernel/job/provenance.hpp"
#include "results/run_records.hpp"
#include "kernel/io/atomic_file.hpp"

#include <fmt/format.h>
#include <nlohmann/json.hpp>
#include <spdlog/sinks/basic_file_sink.h>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <fstream>
#include <vector>

namespace featurelab {

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

std::shared_ptr<spdlog::logger> job_logger(const fs::path& dir) {
  auto sink = std::make_shared<spdlog::sinks::basic_file_sink_mt>((dir / "log.txt").string(), true);
  auto log = std::make_shared<spdlog::logger>("job", sink);
  log->set_pattern("[%H:%M:%S.%e] %l %v");
  log->flush_on(spdlog::level::info);
  return log;
}

// " in model 'crash-model' (/abs/libfixture.so)": the job's components that come from the pack
// library a worker was executing when it crashed or was killed.
std::string crash_site_text(const Pipeline& p, const std::string& library) {
  if (library.empty()) return "";
  std::vector<std::string> names;
  auto add = [&](const ComponentConfig& c) {
    if (!c.ref.pack || !c.ref.component) return;
    std::error_code ec;
    if (fs::absolute(c.ref.pack->manifest.library_file, ec).lexically_normal() != fs::path(library)) return;
    const std::string name = std::string(to_string(c.kind)) + " '" + c.ref.component->name + "'";
    if (std::find(names.begin(), names.end(), name) == names.end()) names.push_back(name);
  };
  for (const ComponentConfig* c : {&p.data, &p.model, &p.loss, &p.optimizer, &p.trainer}) add(*c);
  for (const auto* list : {&p.transforms, &p.augments, &p.regularizers, &p.probes, &p.attacks, &p.callbacks}) {
    for (const auto& c : *list) add(c);
  }
  std::string joined;
  for (const auto& n : names) joined += (joined.empty() ? "" : ", ") + n;
  return " in " + (joined.empty() ? "" : joined + " ") + "(" + library + ")";
}

}  // namespace

int run_job_in_worker(const Pipeline& pipeline, const JobSpec& spec, const fs::path& dir, const std::string& label,
                      Catalog& catalog, const std::atomic<bool>* stop, ProgressSlot* slot, const SaveParams& save_params) {
  // Before log.txt is opened (and truncated) through a link to another job's directory.
  if (std::string problem = job_directory_problem(dir); !problem.empty()) throw Error(problem);
  auto log = job_logger(dir);
  JobOptions job;
  job.save_params = save_params;
  job.dir = dir;
  job.seed = spec.seed;
  job.log = log.get();
  job.stop = stop;
  job.slot = slot;
  job.label = label;
  JobResult result;
  try {
    if (pipeline.init_from) job.init_params = resolve_init_params(*pipeline.init_from, spec.seed);
  } catch (const std::exception& e) {
    // The job's own failure, recorded as any other (summary.json by the parent, log.txt here).
    log->error("model.init_from ({}): {}", pipeline.init_from->where, e.what());
    log->flush();
    throw;
  }
  try {
    result = run_job(pipeline, catalog, job);
  } catch (const std::exception& e) {
    log->error("{}", e.what());
    log->flush();
    throw;
  }
  if (!result.ok) log->error("{}", result.error);
  log->flush();
  return result.ok ? (result.interrupted ? 3 : 0) : 1;
}

RecordedExit record_worker_exit(const Pipeline& pipeline, const JobSpec& spec, const fs::path& dir,
                                const WorkerExit& exit) {
  // The worker writes summary.json itself unless it died or could not; then the parent does. Exit status 0 is
  // success only with the job's own ok record (its summary.json and done marker): a plugin's exit(0) or a Python
  // probe's os._exit(0) ends the worker with 0 before that, and is a failure like a crash.
  // A directory that is not the job's own any more is neither read nor written: it may be another job's.
  if (std::string problem = job_directory_problem(dir); !problem.empty()) return {JobState::failed, problem};
  try {
    const JobRecord r = load_job(dir, spec);
    if (exit.ok && r.ok()) return {JobState::ok, ""};
    if (r.status != JobState::unfinished && !r.ok()) return {r.status, r.error};
  } catch (const std::exception&) {
    // Unreadable: recorded below as the worker's failure.
  }
  const std::string reason =
      exit.ok ? "the worker process ended with exit status 0 before the job finished" +
                    (exit.total > 0 ? fmt::format(", at step {} of {}", exit.step, exit.total) : std::string()) +
                    " (a plugin or probe that called exit() or os._exit()?)"
              : exit.reason;
  RecordedExit recorded{JobState::failed, reason + crash_site_text(pipeline, exit.site)};
  try {
    // Written by the parent: its provenance (the same host and task), with the end the parent saw.
    json summary{{"pipeline", pipeline.name}, {"seed", spec.seed}, {"status", to_string(JobState::failed)},
                 {"error", recorded.error}, {"seconds", exit.seconds}, {"final", json::object()},
                 {"provenance", provenance("", utc_now())}};
    write_file_atomically(dir / "summary.json", summary.dump(2) + "\n");
  } catch (const std::exception& e) {
    // The job stays failed (no done marker, so --resume reruns it); the run goes on.
    recorded.error += fmt::format("; its summary.json could not be written either: {}", e.what());
  }
  std::ofstream(dir / "log.txt", std::ios::app) << "job ended: " << recorded.error << "\n";
  return recorded;
}

void log_job_end(spdlog::logger* log, const std::string& label, const RecordedExit& recorded, double seconds) {
  if (!log) return;
  if (recorded.status == JobState::ok) {
    log->info("{} done in {:.1f}s", label, seconds);
  } else if (recorded.status == JobState::pruned) {
    log->info("{} pruned after {:.1f}s: {}", label, seconds, recorded.error);
  } else if (recorded.status == JobState::interrupted) {
    log->warn("{} interrupted", label);
  } else {
    log->error("{} failed: {}", label, recorded.error);
  }
}

}  // namespace featurelab
