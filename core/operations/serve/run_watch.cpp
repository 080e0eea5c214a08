#include "operations/serve/run_watch.hpp"

#include "kernel/io/run_lock.hpp"
#include "results/config_keys.hpp"

#include <featurelab/error.hpp>

#include <nlohmann/json.hpp>

#include <cmath>
#include <fstream>

namespace featurelab {

namespace fs = std::filesystem;

RunWatch::RunWatch(fs::path dir) : dir_(std::move(dir)), run_(read_run_record(dir_)) {
  for (const auto& spec : run_.jobs) {
    WatchedJob job;
    job.spec = spec;
    jobs_.push_back(std::move(job));
  }
  try {
    const auto keys = configuration_keys(dir_ / "config.toml");
    if (const auto steps = keys.find("train.steps"); steps != keys.end()) total_steps_ = std::stoll(steps->second);
  } catch (const std::exception&) {
    // No steps to show an ETA against; the rest stands.
  }
}

void RunWatch::refresh() {
  problem_.clear();
  // `featurelab run` holds the run directory alone and its jobs unlocked; `featurelab job` holds each job's.
  const bool whole_run_running = DirectoryLock::held_elsewhere(dir_, DirectoryLock::Mode::exclusive);
  for (auto& job : jobs_) {
    if (job.settled) continue;
    read_state(job, whole_run_running);
    read_metrics(job);
    // A finished job's file is whole once its state is read after it: nothing more will come.
    if (job.state == JobState::ok || job.state == JobState::failed || job.state == JobState::pruned ||
        job.state == JobState::interrupted) {
      job.settled = true;
    }
  }
}

void RunWatch::read_state(WatchedJob& job, bool whole_run_running) {
  const fs::path dir = dir_ / "jobs" / job.spec.dir;
  std::error_code error;
  if (std::string problem = job_directory_problem(dir); !problem.empty()) {
    job.state = JobState::failed;
    job.reason = problem;
    return;
  }
  if (fs::exists(dir / "summary.json", error)) {
    std::ifstream in(dir / "summary.json");
    const auto summary = nlohmann::json::parse(in, nullptr, false);
    if (summary.is_object()) {
      if (const auto from = summary.find("init_from"); from != summary.end() && from->is_object()) {
        job.init_from = from->value("job", "") + " step " + std::to_string(from->value("step", Index(0)));
      }
      const auto state = recorded_state(summary.value("status", ""));
      if (state && (*state != JobState::ok || fs::exists(dir / "done", error))) {
        job.state = *state;
        job.reason = *state == JobState::pruned ? summary.value("pruned", "") : summary.value("error", "");
        return;
      }
    }
    // Being written (the worker writes it atomically, but a copy may be partial): read again next time.
  }
  const bool begun = fs::exists(dir / "log.txt", error) || fs::exists(dir / "metrics.jsonl", error);
  job.state = DirectoryLock::held_elsewhere(dir) || (whole_run_running && begun) ? JobState::running : JobState::unfinished;
}

void RunWatch::read_metrics(WatchedJob& job) {
  const fs::path file = dir_ / "jobs" / job.spec.dir / "metrics.jsonl";
  std::error_code error;
  const auto size = fs::file_size(file, error);
  if (error || size <= job.offset) return;
  std::ifstream in(file, std::ios::binary);
  in.seekg(static_cast<std::streamoff>(job.offset));
  std::string line;
  while (std::getline(in, line) && !in.eof()) {  // whole lines only
    job.offset += line.size() + 1;
    const auto record = nlohmann::json::parse(line, nullptr, false);
    if (!record.is_object() || !record.contains("metric") || !record.contains("step")) {
      problem_ = file.string() + ": a line that is not a record; the job's values after it may be missing";
      continue;
    }
    const auto& value = record["value"];
    const double v = value.is_number() ? value.get<double>() : std::nan("");
    const std::string metric = record.value("metric", "");
    const Index step = record["step"].is_number_integer() ? record["step"].get<Index>() : -1;
    job.history[metric].emplace_back(step, v);
    job.step = std::max(job.step, step);
    metrics_.insert(metric);
  }
}

}  // namespace featurelab
