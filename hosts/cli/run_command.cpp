// featurelab validate P.toml / featurelab run P.toml: check a pipeline, or run it.
#include "job_options.hpp"
#include "session.hpp"

#include <featurelab/core/errors.hpp>
#include <featurelab/core/session.hpp>

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

Plan load_and_validate(const PipelineArgs& args, Session& session, const JobLimits& limits = {}) {
  Plan plan = session.plan(args.file, args.overrides, limits);
  for (const auto& warning : plan.warnings()) std::cerr << "warning: " << warning << "\n";
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
    Session session = open_session(global, false);
    for (const auto& problem : session.catalog().problems()) std::cerr << "warning: " << problem << "\n";
    const Plan plan = load_and_validate(*args, session);
    if (*print) {
      for (std::size_t i = 0; i < plan.points(); ++i) {
        if (plan.points() > 1) std::cout << "# sweep point " << i << ": " << plan.point_label(i) << "\n";
        std::cout << plan.operative_toml(i);
      }
    } else {
      std::cout << args->file << ": ok (" << plan.jobs() << " job(s): " << plan.points() << " sweep point(s) × "
                << plan.seeds() << " seed(s), " << plan.probes() << " probe(s), " << plan.assertions()
                << " assertion(s))\n";
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
    Session session = open_session(global);
    const Plan plan = load_and_validate(*args, session, *limits);
    RunRequest request;
    request.out = *out;
    request.jobs = *jobs;
    request.resume = *resume;
    request.prepare_only = *prepare;
    request.limits = *limits;
    request.save_params = *save_params;
    request.live_progress = ::isatty(STDERR_FILENO) != 0 && !global.quiet;
    return session.run(plan, request).exit_code;
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
    Session session = open_session(global, false);
    const std::vector<std::filesystem::path> dirs(runs->begin(), runs->end());
    return session.collect(dirs, *out);
  };
}

}  // namespace featurelab::cli
