#include "execution/pipeline_session.hpp"

#include "kernel/config/validate.hpp"
#include "execution/allowed_cpus.hpp"
#include "execution/component_check.hpp"
#include "execution/job_memory_limit.hpp"
#include "results/run_assertions.hpp"
#include "execution/run_builds.hpp"
#include <featurelab/core/errors.hpp>

#include <fmt/format.h>

#include <cmath>

namespace featurelab {

namespace {

// More worker processes than this is a typo, not a machine: refused before anything starts.
constexpr int kMaxJobs = 4096;

}  // namespace

RunPlan load_and_validate(const std::filesystem::path& file, const std::vector<std::string>& overrides, Catalog& catalog,
                          const JobLimits& limits) {
  RunPlan plan = plan_run(file, overrides, catalog);
  check_assertions(plan);
  pin_run_packs(plan, catalog);  // before anything is built from them, here or in a worker
  check_components(plan, catalog, {limits.timeout, static_cast<std::size_t>(limits.memory_mib)});
  return plan;
}

void check_job_limits(const JobLimits& limits) {
  if (!std::isfinite(limits.timeout) || limits.timeout < 0) {
    throw ConfigError({{"--job-timeout", fmt::format("{} is not a number of seconds; give 0 (no limit) or a positive number",
                                                     limits.timeout)}});
  }
  if (const std::string problem = job_memory_problem(limits.memory_mib); !problem.empty()) {
    throw ConfigError({{"--job-memory", problem}});
  }
}

int worker_count(int requested, spdlog::logger& log) {
  const int cpus = allowed_cpus();
  if (requested == 0) return cpus;
  if (requested < 0) throw ConfigError({{"--jobs", fmt::format("{} is not a count of worker processes; give at least 1", requested)}});
  if (requested > kMaxJobs) {
    throw ConfigError({{"--jobs", fmt::format("{} is over the bound of {} worker processes; this process may use {} "
                                              "CPU(s): give at most that many, or leave --jobs out",
                                              requested, kMaxJobs, cpus)}});
  }
  if (requested > cpus) {
    log.warn("--jobs {}: this process may use {} CPU(s) (its CPU affinity and cgroup quota); running {} worker(s), "
             "since more would only take turns on them",
             requested, cpus, cpus);
    return cpus;
  }
  return requested;
}

RunOptions run_options(const RunPlan& plan, const RunRequest& request, spdlog::logger& log) {
  check_job_limits(request.limits);
  RunOptions options;
  options.out = request.out.empty() ? std::filesystem::path("runs") / plan.points.front().name : request.out;
  if (request.resume && !std::filesystem::exists(options.out / "run.json")) {
    throw ConfigError({{options.out.string(), "--resume: no run to resume here (no run.json)"}});
  }
  check_resumed_builds(options.out, plan);
  options.jobs = worker_count(request.jobs, log);
  options.cores = options.jobs;
  options.prepare_only = request.prepare_only;
  if (!request.save_params.empty()) {
    options.save_params = parse_save_params(request.save_params, "--save-params");
  } else if (const std::string& own = plan.points.front().save_params; !own.empty()) {
    options.save_params = parse_save_params(own, "experiment.save_params");  // the pipeline's own, checked when validated
  }
  options.job_timeout = request.limits.timeout;
  options.job_memory_mb = static_cast<std::size_t>(request.limits.memory_mib);
  return options;
}

}  // namespace featurelab
