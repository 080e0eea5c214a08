// featurelab eval RUN: probes measured again on the parameters the jobs saved (run --save-params), no training.
#include "job_options.hpp"
#include "session.hpp"

#include <featurelab/core/index_list.hpp>
#include <featurelab/core/errors.hpp>
#include <featurelab/core/run_directory.hpp>
#include <featurelab/core/session.hpp>

#include <spdlog/spdlog.h>

namespace featurelab::cli {

Action add_eval_command(CLI::App& app, const GlobalOptions& global) {
  auto* sub = app.add_subcommand("eval", "Measure probes on the parameters a run's jobs saved (run --save-params), "
                                         "without training");
  auto request = std::make_shared<EvaluationRequest>();
  auto run = std::make_shared<std::string>();
  auto probes = std::make_shared<std::string>();
  auto indices = std::make_shared<std::string>();
  auto step = std::make_shared<long long>(-1);
  sub->add_option("run", *run, "Run directory")->required();
  sub->add_option("--probes", *probes,
                  "A TOML file of [[probe]] tables to measure (default: each job's own probes)")->type_name("FILE");
  sub->add_option("--name", request->name, "Write to jobs/X/eval/NAME (default: the probes file's name, or probes)");
  sub->add_option("--step", *step, "A saved step (default: each job's last)")->type_name("N");
  sub->add_option("--indices", *indices, "Only these jobs (0-4,7; default: every job that saved parameters)")->type_name("LIST");
  auto jobs = std::make_shared<int>(0);
  sub->add_option("-j,--jobs", *jobs, "Jobs measured at once (default: the CPUs this process may use)");
  auto limits = std::make_shared<JobLimits>();
  add_job_limit_args(sub, *limits);
  return [&global, request, run, probes, indices, step, jobs, limits]() {
    check_job_limits(*limits);
    request->limits = *limits;
    Session session = open_session(global, false);
    request->run_dir = *run;
    request->probes_file = *probes;
    if (*step >= 0) request->step = *step;
    if (!indices->empty()) request->indices = parse_index_list(*indices, RunDirectory(*run).job_count(), "--indices");
    request->jobs = *jobs;
    return session.evaluate(*request);
  };
}

}  // namespace featurelab::cli
