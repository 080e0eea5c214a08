// featurelab submit RUN: a prepared run's jobs (those still to run) as Slurm job arrays.
#include "job_options.hpp"
#include "session.hpp"

#include <featurelab/core/index_list.hpp>
#include <featurelab/core/slurm_submission.hpp>
#include <featurelab/core/errors.hpp>
#include <featurelab/core/run_directory.hpp>

#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include <iostream>
#include <set>

namespace featurelab::cli {

namespace {

// This executable, by its real path: the array tasks run the same build on the cluster's shared filesystem.
std::string this_executable() {
  std::error_code ec;
  const auto self = std::filesystem::read_symlink("/proc/self/exe", ec);
  return ec ? std::string("featurelab") : self.string();
}

}  // namespace

Action add_submit_command(CLI::App& app, const GlobalOptions& global) {
  auto* sub = app.add_subcommand("submit", "Submit a prepared run's jobs still to run as Slurm job arrays (sbatch)");
  auto s = std::make_shared<SlurmSubmission>();
  auto run = std::make_shared<std::string>();
  auto indices = std::make_shared<std::string>();
  auto dry_run = std::make_shared<bool>(false);
  auto max_array = std::make_shared<std::size_t>(0);
  auto jobs_per_task = std::make_shared<int>(1);
  sub->add_option("run", *run, "Run directory written by featurelab run --prepare")->required();
  sub->add_option("--indices", *indices, "Only these jobs (default: every job not done and not running)")->type_name("LIST");
  sub->add_option("--jobs-per-task", *jobs_per_task, "Jobs each array task runs, on its CPUs (default 1)")
      ->check(counting("a count of jobs", 1));
  sub->add_option("--cpus-per-task", s->cpus_per_task, "CPUs of each array task (sbatch --cpus-per-task; default 1)")
      ->check(counting("a count of CPUs", 1));
  sub->add_option("--partition", s->partition, "sbatch --partition (default: the cluster's)");
  sub->add_option("--time", s->time, "sbatch --time, each task's limit (default: the partition's), e.g. 1:00:00");
  sub->add_option("--signal-seconds", s->signal_seconds,
                  "SIGTERM this many seconds before the time limit: the running jobs end after their step, as "
                  "interrupted (default 60)")
      ->check(counting("a number of seconds", 1));
  sub->add_option("--sbatch", s->sbatch_options, "A further #SBATCH option, e.g. --sbatch=--mem=4G (repeatable)")
      ->type_name("OPTION");
  sub->add_option("--max-array-size", *max_array,
                  "Tasks per array (default: the cluster's MaxArraySize, from scontrol show config)")
      ->check(counting("a count of array tasks", 1));
  sub->add_option("--client-timeout", s->client_timeout,
                  "Seconds scontrol, sbatch and squeue may take before submit gives up (default 60)")
      ->check(CLI::Range(0.001, 86400.0));
  sub->add_flag("--dry-run", *dry_run, "Write and print the scripts, submit nothing");
  return [&global, s, run, indices, dry_run, max_array, jobs_per_task]() {
    auto log = make_logger(global);
    const RunDirectory stored(*run);
    s->run_dir = *run;
    s->run_name = stored.name();
    s->jobs_per_task = static_cast<std::size_t>(*jobs_per_task);
    s->indices = indices->empty() ? stored.status().missing() : parse_index_list(*indices, stored.job_count(), "--indices");
    if (indices->empty() && !s->indices.empty()) {
      // Queued by an earlier submit and not begun: neither done nor locked, so `status` cannot see them. Slurm can.
      try {
        const std::set<std::size_t> queued = jobs_still_queued(*run, stored.job_count(), s->client_timeout);
        std::vector<std::size_t> kept, skipped;
        for (const std::size_t i : s->indices) (queued.count(i) ? skipped : kept).push_back(i);
        s->indices = std::move(kept);
        if (!skipped.empty()) {
          log->info("{} job(s) still queued in Slurm by an earlier submit, not submitted again: {}", skipped.size(),
                    format_index_list(skipped));
        }
      } catch (const Error& e) {
        log->warn("{}; jobs an earlier submit queued may be queued again (a duplicate task finds its job done or "
                  "running and skips it)", e.what());
      }
    }
    if (s->indices.empty()) {
      log->info("{}: nothing to submit: every job is done, running or queued (featurelab status {}; squeue --me)", *run, *run);
      return int(kExitOk);
    }
    s->featurelab = {this_executable()};
    for (const auto& path : global.plugin_paths) s->featurelab.insert(s->featurelab.end(), {"--plugin-path", path});
    std::size_t array_size = *max_array;
    if (array_size == 0 && *dry_run) {
      try {
        array_size = cluster_max_array_size(s->client_timeout);
      } catch (const Error& e) {
        array_size = 1001;  // Slurm's default MaxArraySize
        log->warn("{}; writing arrays of at most {} tasks (Slurm's default)", e.what(), array_size);
      }
    } else if (array_size == 0) {
      array_size = cluster_max_array_size(s->client_timeout);
    }
    const auto scripts = write_sbatch_scripts(*s, array_size);
    const std::size_t tasks = s->indices.size() / s->jobs_per_task + (s->indices.size() % s->jobs_per_task != 0 ? 1 : 0);
    log->info("{}: {} job(s) in {} task(s) of {} job(s) on {} CPU(s), {} array(s) of at most {} task(s)", *run,
              s->indices.size(), tasks, s->jobs_per_task, s->cpus_per_task, scripts.size(), array_size);
    for (const auto& script : scripts) {
      if (*dry_run) {
        std::cout << "# " << script.file.string() << "\n" << script.text << "\n";
        continue;
      }
      const std::string id = submit_sbatch_script(*s, script);
      log->info("submitted array {} ({} task(s), jobs {}): {}", id, script.tasks, format_index_list(script.indices),
                script.file.string());
    }
    if (*dry_run) log->info("dry run: nothing submitted; submit each script with sbatch, or run again without --dry-run");
    return int(kExitOk);
  };
}

}  // namespace featurelab::cli
