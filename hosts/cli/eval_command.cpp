// featurelab eval RUN: probes measured again on the parameters the jobs saved (run --save-params), no training.
#include "job_options.hpp"
#include "session.hpp"

#include "cluster/index_list.hpp"
#include "engine/results.hpp"
#include "engine/run_builds.hpp"
#include "engine/pipeline_session.hpp"
#include "engine/saved_evaluation.hpp"
#include "engine/stop_signals.hpp"
#include "errors.hpp"

#include <spdlog/spdlog.h>

namespace featurelab::cli {

Action add_eval_command(CLI::App& app, const GlobalOptions& global) {
  auto* sub = app.add_subcommand("eval", "Measure probes on the parameters a run's jobs saved (run --save-params), "
                                         "without training");
  auto request = std::make_shared<SavedEvaluation>();
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
    request->job_timeout = limits->timeout;
    request->job_memory_mb = static_cast<std::size_t>(limits->memory_mib);
    Catalog catalog = discover(global);
    auto log = make_logger(global);
    // The run's own builds, as `featurelab job` loads them: a plugin rebuilt since would measure the saved
    // parameters with other code, and the values would differ from the run's without a word.
    pin_recorded_builds(*run, catalog);
    request->run_dir = *run;
    request->probes_file = *probes;
    if (*step >= 0) request->step = static_cast<Index>(*step);
    if (!indices->empty()) request->indices = parse_index_list(*indices, read_run_record(*run).jobs.size(), "--indices");
    request->jobs = worker_count(*jobs, *log);
    request->stop = &stop_requested_flag();
    const ScopedStopHandlers handlers;
    return evaluate_saved_parameters(*request, catalog, log.get());
  };
}

}  // namespace featurelab::cli
