// featurelab validate P.toml / featurelab run P.toml: check a pipeline, or run it.
#include "job_options.hpp"
#include "session.hpp"

#include "config/validate.hpp"
#include "engine/allowed_cpus.hpp"
#include "engine/pipeline_session.hpp"
#include "engine/run.hpp"
#include "engine/run_builds.hpp"
#include "engine/stop_signals.hpp"
#include "errors.hpp"

#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include <cmath>
#include <cstdint>
#include <iostream>
#include <unistd.h>

namespace featurelab::cli {

namespace {

struct PipelineArgs {
  std::string file;
  std::vector<std::string> overrides;
};

void add_pipeline_args(CLI::App* sub, PipelineArgs& args) {
  sub->add_option("pipeline", args.file, "Pipeline TOML file")->required();
  sub->add_option("--set", args.overrides,
                  "Override a key: --set model.width=200 --set augment.0.alpha=0.4 (repeatable)")
      ->type_name("KEY=VALUE");
}

RunPlan load_and_validate(const PipelineArgs& args, Catalog& catalog, const JobLimits& limits = {}) {
  RunPlan plan = featurelab::load_and_validate(args.file, args.overrides, catalog, limits);
  for (const auto& warning : plan.warnings) std::cerr << "warning: " << warning << "\n";
  return plan;
}

}  // namespace

Action add_validate_command(CLI::App& app, const GlobalOptions& global) {
  auto* sub = app.add_subcommand("validate", "Check a pipeline against the component schemas; run nothing");
  auto args = std::make_shared<PipelineArgs>();
  add_pipeline_args(sub, *args);
  auto print = std::make_shared<bool>(false);
  sub->add_flag("--print", *print, "Print the operative configuration (every parameter, defaults included)");
  return [&global, args, print]() {
    Catalog catalog = discover(global);
    for (const auto& problem : catalog.problems()) std::cerr << "warning: " << problem << "\n";
    const RunPlan plan = load_and_validate(*args, catalog);
    const Pipeline& first = plan.points.front();
    if (*print) {
      for (std::size_t i = 0; i < plan.points.size(); ++i) {
        if (plan.points.size() > 1) {
          for (const auto& job : plan.jobs) {
            if (job.point == i) {
              std::cout << "# sweep point " << i << ": " << job.point_label() << "\n";
              break;
            }
          }
        }
        std::cout << plan.points[i].operative_toml();
      }
    } else {
      std::cout << args->file << ": ok (" << plan.jobs.size() << " job(s): " << plan.points.size()
                << " sweep point(s) × " << first.seeds.size() << " seed(s), " << first.probes.size()
                << " probe(s), " << first.asserts.size() << " assertion(s))\n";
    }
    return int(kExitOk);
  };
}

Action add_run_command(CLI::App& app, const GlobalOptions& global) {
  auto* sub = app.add_subcommand("run", "Run a pipeline: every seed, then its assertions");
  auto args = std::make_shared<PipelineArgs>();
  add_pipeline_args(sub, *args);
  auto out = std::make_shared<std::string>();
  sub->add_option("-o,--out", *out, "Run directory (default: runs/<pipeline name>); re-running into it resumes")
      ->type_name("DIR");
  auto jobs = std::make_shared<int>(0);
  sub->add_option("-j,--jobs", *jobs,
                  "Worker processes (default: the CPUs this process may use, after its CPU affinity and cgroup "
                  "quota; more are not used)")
      ->check(counting("a count of worker processes", 1));
  auto resume = std::make_shared<bool>(false);
  sub->add_flag("--resume", *resume,
                "Continue a run directory: finished jobs are kept, the others rerun (also the default)");
  auto prepare = std::make_shared<bool>(false);
  sub->add_flag("--prepare", *prepare, "Write the run directory and run nothing (then: featurelab job RUN --index I)");
  auto save_params = std::make_shared<std::string>();
  sub->add_option("--save-params", *save_params,
                  "Save each job's parameter blocks as NumPy .npy in jobs/X/params/ (hashes in summary.json): final "
                  "(the last step), or every:N (each evaluation step that is a multiple of N, and the last); "
                  "featurelab eval measures them again")
      ->type_name("final|every:N");
  auto limits = std::make_shared<JobLimits>();
  add_job_limit_args(sub, *limits);
  return [&global, args, out, jobs, resume, prepare, limits, save_params]() {
    check_job_limits(*limits);
    Catalog catalog = discover(global);
    auto log = make_logger(global);
    for (const auto& problem : catalog.problems()) log->warn("{}", problem);
    const RunPlan plan = load_and_validate(*args, catalog, *limits);
    RunRequest request;
    request.out = *out;
    request.jobs = *jobs;
    request.resume = *resume;
    request.prepare_only = *prepare;
    request.limits = *limits;
    request.save_params = *save_params;
    RunOptions options = run_options(plan, request, *log);
    options.live_progress = ::isatty(STDERR_FILENO) != 0 && !global.quiet;
    options.log = log.get();
    options.stop = &stop_requested_flag();
    const ScopedStopHandlers handlers;
    return execute_run(plan, catalog, options);
  };
}

}  // namespace featurelab::cli

namespace featurelab::cli {

Action add_collect_command(CLI::App& app, const GlobalOptions& global) {
  auto* sub = app.add_subcommand("collect", "Rebuild summary.csv and asserts.json of runs; join several");
  auto runs = std::make_shared<std::vector<std::string>>();
  auto out = std::make_shared<std::string>();
  sub->add_option("runs", *runs, "Run directories")->required();
  sub->add_option("-o,--out", *out, "Also write one CSV joining every run's summary")->type_name("FILE");
  return [&global, runs, out]() {
    Catalog catalog = discover(global);
    auto log = make_logger(global);
    std::vector<std::filesystem::path> dirs(runs->begin(), runs->end());
    return collect_runs(dirs, *out, catalog, log.get());
  };
}

}  // namespace featurelab::cli
