// The host facade's Session (featurelab/core/session.hpp) over the execution layer: planning with its checks
// (pipeline_session.hpp), a run (run.hpp), the jobs of a prepared run (prepared_jobs.hpp) and saved evaluation.
#include <featurelab/core/session.hpp>

#include "execution/allowed_cpus.hpp"
#include "execution/pipeline_session.hpp"
#include "execution/prepared_jobs.hpp"
#include "execution/run.hpp"
#include "execution/run_builds.hpp"
#include "execution/saved_evaluation.hpp"
#include "execution/stop_signals.hpp"
#include "kernel/job/plan.hpp"

#include <featurelab/product_kernel.hpp>

#include <spdlog/logger.h>

namespace featurelab {

Plan::Plan(std::unique_ptr<RunPlan> plan) : plan_(std::move(plan)) {}
Plan::Plan(Plan&&) noexcept = default;
Plan& Plan::operator=(Plan&&) noexcept = default;
Plan::~Plan() = default;

const std::string& Plan::name() const { return plan_->points.front().name; }
std::size_t Plan::jobs() const { return plan_->jobs.size(); }
std::size_t Plan::points() const { return plan_->points.size(); }
std::size_t Plan::seeds() const { return plan_->points.front().seeds.size(); }
std::size_t Plan::probes() const { return plan_->points.front().probes.size(); }
std::size_t Plan::assertions() const { return plan_->points.front().asserts.size(); }
const std::vector<std::string>& Plan::warnings() const { return plan_->warnings; }
std::string Plan::operative_toml(std::size_t point) const { return plan_->points.at(point).operative_toml(); }

std::string Plan::point_label(std::size_t point) const {
  for (const auto& job : plan_->jobs) {
    if (job.point == point) return job.point_label();
  }
  return {};
}

Session::Session(const std::vector<std::string>& plugin_paths, std::shared_ptr<spdlog::logger> log) : log_(std::move(log)) {
  catalog_.discover(Catalog::search_path(plugin_paths));
}

Session::Session(Found, Catalog catalog, std::shared_ptr<spdlog::logger> log)
    : catalog_(std::move(catalog)), log_(std::move(log)) {}

Session Session::over(Catalog catalog, std::shared_ptr<spdlog::logger> log) {
  return Session(Found{}, std::move(catalog), std::move(log));
}

Plan Session::plan(const std::filesystem::path& file, const std::vector<std::string>& overrides, const JobLimits& limits) {
  return Plan(std::make_unique<RunPlan>(load_and_validate(file, overrides, catalog_, limits)));
}

int Session::worker_count(int requested) { return featurelab::worker_count(requested, *log_); }

RunOutcome Session::run(const Plan& plan, const RunRequest& request) {
  check_product_kernel_environment();  // FEATURELAB_PRODUCT_KERNEL names a kernel this build has
  RunOptions options = run_options(*plan.plan_, request, *log_);
  options.live_progress = request.live_progress;
  options.log = log_.get();
  options.stop = &stop_requested_flag();
  const ScopedStopHandlers handlers;
  const int code = execute_run(*plan.plan_, catalog_, options);
  return {code, options.out};
}

int Session::run_jobs(const JobsRequest& request) {
  check_product_kernel_environment();
  check_job_limits(request.limits);
  pin_recorded_builds(request.run_dir, catalog_);
  RunOptions options;
  options.out = request.run_dir;
  options.cores = allowed_cpus();  // the allocation's CPUs, shared by the jobs running at once
  options.jobs = worker_count(request.jobs);
  options.job_timeout = request.limits.timeout;
  options.job_memory_mb = static_cast<std::size_t>(request.limits.memory_mib);
  options.live_progress = request.live_progress;
  options.log = log_.get();
  options.stop = &stop_requested_flag();
  const ScopedStopHandlers handlers;
  return run_prepared_jobs(request.indices, catalog_, options);
}

int Session::evaluate(const EvaluationRequest& request) {
  check_product_kernel_environment();
  check_job_limits(request.limits);
  // The run's own builds, as `featurelab job` loads them: a plugin rebuilt since would measure the saved
  // parameters with other code, and the values would differ from the run's without a word.
  pin_recorded_builds(request.run_dir, catalog_);
  SavedEvaluation evaluation;
  evaluation.run_dir = request.run_dir;
  evaluation.probes_file = request.probes_file;
  evaluation.name = request.name;
  if (request.step) evaluation.step = static_cast<Index>(*request.step);
  evaluation.indices = request.indices;
  evaluation.jobs = worker_count(request.jobs);
  evaluation.job_timeout = request.limits.timeout;
  evaluation.job_memory_mb = static_cast<std::size_t>(request.limits.memory_mib);
  evaluation.stop = &stop_requested_flag();
  const ScopedStopHandlers handlers;
  return evaluate_saved_parameters(evaluation, catalog_, log_.get());
}

int Session::collect(const std::vector<std::filesystem::path>& runs, const std::filesystem::path& out) {
  return collect_runs(runs, out, catalog_, log_.get());
}

}  // namespace featurelab
