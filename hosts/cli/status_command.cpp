// featurelab status RUN [--missing]: where each job of a run stands, and which are still to run.
#include "session.hpp"

#include <featurelab/core/index_list.hpp>
#include <featurelab/core/errors.hpp>
#include <featurelab/core/run_directory.hpp>

#include <fmt/format.h>

#include <iostream>

namespace featurelab::cli {

Action add_status_command(CLI::App& app, const GlobalOptions&) {
  auto* sub = app.add_subcommand("status", "Count a run's jobs by state; --missing lists those still to run");
  auto run = std::make_shared<std::string>();
  auto missing = std::make_shared<bool>(false);
  sub->add_option("run", *run, "Run directory")->required();
  sub->add_flag("--missing", *missing,
                "Print only the indices of the jobs still to run (failed, interrupted, unfinished) as Slurm writes "
                "arrays (0-4,7), for featurelab job --indices or featurelab submit --indices; nothing when none");
  return [run, missing]() {
    const RunStatus status = RunDirectory(*run).status();
    if (*missing) {
      const std::string list = format_index_list(status.missing());
      if (!list.empty()) std::cout << list << "\n";
      return int(kExitOk);
    }
    std::cout << fmt::format("{}: {} job(s)", *run, status.jobs.size());
    for (JobState state : {JobState::ok, JobState::pruned, JobState::failed, JobState::interrupted, JobState::running,
                           JobState::unfinished}) {
      // pruned only where [prune] stopped a job: the line of a run without it reads as before
      if (state == JobState::pruned && status.in(state).empty()) continue;
      std::cout << fmt::format(", {} {}", status.in(state).size(), to_string(state));
    }
    std::cout << "\n";
    for (JobState state : {JobState::failed, JobState::interrupted, JobState::running, JobState::unfinished}) {
      const auto indices = status.in(state);
      if (!indices.empty()) std::cout << fmt::format("  {:<12} {}\n", to_string(state), format_index_list(indices));
    }
    for (const auto& job : status.jobs) {
      if (job.state == JobState::failed && !job.error.empty()) {
        std::cout << fmt::format("  job {} failed: {}\n", job.index, job.error.substr(0, job.error.find('\n')));
      }
    }
    return int(kExitOk);
  };
}

}  // namespace featurelab::cli
