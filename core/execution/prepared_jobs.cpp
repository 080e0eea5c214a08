#include "execution/prepared_jobs.hpp"

#include "kernel/config/validate.hpp"
#include <featurelab/core/index_list.hpp>
#include "results/run_records.hpp"
#include "kernel/io/run_lock.hpp"
#include "execution/stop_signals.hpp"
#include "execution/worker_job.hpp"
#include "execution/workers.hpp"
#include <featurelab/core/errors.hpp>

#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <memory>

namespace featurelab {

namespace fs = std::filesystem;

int run_prepared_jobs(const std::vector<std::size_t>& indices, Catalog& catalog, const RunOptions& options) {
  const fs::path& run_dir = options.out;
  const StoredRun run = read_run_record(run_dir);
  for (const std::size_t index : indices) {
    if (index >= run.jobs.size()) {
      throw ConfigError({{run_dir.string(), "job " + std::to_string(index) + " is out of range: this run has " +
                                                std::to_string(run.jobs.size()) + " jobs (0 to " +
                                                std::to_string(run.jobs.size() - 1) + ")"}});
    }
  }
  // Jobs of one run may run side by side; not beside a `run` into the directory.
  const DirectoryLock run_lock(run_dir, DirectoryLock::Mode::shared, "the run directory");
  std::vector<std::unique_ptr<DirectoryLock>> job_locks(run.jobs.size());
  std::vector<Pipeline> pipelines(run.jobs.size());
  std::vector<std::string> labels(run.jobs.size());    // on the command's lines: "job 3"
  std::vector<std::string> job_labels(run.jobs.size());  // in the job's log.txt: "#3 seed 1 model.width=8"
  std::size_t failed = 0, interrupted = 0;
  const auto stopping = [&] { return options.stop && options.stop->load(); };

  // Takes job `index` into `todo` under its lock; false when another process holds the lock and `wait` is false.
  // A job found done under its lock (another process finished it) is let go.
  std::vector<std::size_t> todo;
  const auto take = [&](std::size_t index, bool wait) -> bool {
    const JobSpec& spec = run.jobs[index];
    const fs::path dir = run_dir / "jobs" / spec.dir;
    if (const std::string problem = job_directory_problem(dir); !problem.empty()) {
      if (options.log) options.log->error("job {} failed: {}", index, problem);
      ++failed;
      return true;
    }
    fs::create_directories(dir);
    try {
      if (wait) {
        DirectoryLock::Wait waiting;
        waiting.stop = options.stop;
        waiting.waiting = [&](const std::string& holders) {
          if (options.log) options.log->warn("job {} is being run by {}; waiting for it", index, holders);
        };
        job_locks[index] = std::make_unique<DirectoryLock>(dir, DirectoryLock::Mode::exclusive, "job " + std::to_string(index), waiting);
      } else {
        job_locks[index] = std::make_unique<DirectoryLock>(dir, DirectoryLock::Mode::exclusive, "job " + std::to_string(index));
      }
    } catch (const BusyError&) {
      if (!wait || stopping()) return false;  // busy, or stopped while waiting
      throw;
    }
    // Checked under the job's lock: a job another process finished meanwhile is not run again.
    if (fs::exists(dir / "done")) {
      if (options.log) options.log->info("job {} is already done", index);
      job_locks[index].reset();
      return true;
    }
    pipelines[index] = validate_pipeline(load_pipeline(dir / "config.toml", {}), catalog);
    if (job_id(pipelines[index], spec.seed) != spec.id) {
      throw ConfigError({{(dir / "config.toml").string(), "does not match the job's id in run.json (edited by hand?)"}});
    }
    labels[index] = fmt::format("job {}", spec.index);
    job_labels[index] = fmt::format("#{} seed {} {}", spec.index, spec.seed, spec.point_label());
    todo.push_back(index);
    return true;
  };

  // Ascending, each once, and never waiting for one job while holding another: two processes given overlapping lists
  // in any order cannot wait for each other. A job another process runs is put off; the free ones run first, and
  // when only busy ones are left, this process holds no job's lock while it waits for the first of them.
  std::vector<std::size_t> pending = indices;
  std::sort(pending.begin(), pending.end());
  pending.erase(std::unique(pending.begin(), pending.end()), pending.end());
  while (!pending.empty() && !stopping()) {
    std::vector<std::size_t> busy;
    for (const std::size_t index : pending) {
      if (!take(index, false)) busy.push_back(index);
    }
    if (todo.empty() && !busy.empty()) {
      if (!take(busy.front(), true)) break;  // stopped while waiting
      busy.erase(busy.begin());
    } else if (!busy.empty() && options.log) {
      options.log->info("{} job(s) being run by another process ({}): the others first", busy.size(),
                        format_index_list(busy));
    }
    pending = std::move(busy);
    if (todo.empty()) continue;
    if (options.log) {
      options.log->info("{} job(s) on {} CPU(s), {} at once", todo.size(), options.cores,
                        std::min<std::size_t>(todo.size(), static_cast<std::size_t>(std::max(1, options.jobs))));
    }
    WorkerPoolOptions pool = worker_pool_options(options, pipelines[todo.front()].timeout);
    pool.lost = [&]() -> std::string {
      for (const std::size_t index : todo) {
        if (auto why = job_locks[index]->lost(run_dir / "jobs" / run.jobs[index].dir); !why.empty()) return why;
      }
      return {};
    };
    const WorkerPoolReport report = run_in_workers(
        todo, labels,
        [&](std::size_t index, ProgressSlot* slot) {
          const JobSpec& spec = run.jobs[index];
          return run_job_in_worker(pipelines[index], spec, run_dir / "jobs" / spec.dir, job_labels[index], catalog, options.stop, slot,
                                   run.save_params);
        },
        [&](std::size_t index, const WorkerExit& exit) {
          const JobSpec& spec = run.jobs[index];
          const RecordedExit recorded = record_worker_exit(pipelines[index], spec, run_dir / "jobs" / spec.dir, exit);
          log_job_end(options.log, labels[index], recorded, exit.seconds);
          if (recorded.status == JobState::failed) ++failed;
          if (recorded.status == JobState::interrupted) ++interrupted;
          return recorded.status == JobState::ok || recorded.status == JobState::pruned;
        },
        pool);
    if (!report.lost_reason.empty()) {
      if (options.log) options.log->error("stopped: {}", report.lost_reason);
      return kExitRunFailed;
    }
    if (report.not_started > 0) {
      if (options.log) options.log->error("{} job(s) not started: {}", report.not_started, report.not_started_reason);
      return kExitRunFailed;
    }
    for (const std::size_t index : todo) job_locks[index].reset();
    todo.clear();
  }
  if (failed > 0) return kExitRunFailed;
  if (interrupted > 0 || stopping()) return stopped_exit_code();
  return kExitOk;
}

}  // namespace featurelab
