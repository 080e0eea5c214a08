// What a session (featurelab/core/session.hpp) does with a pipeline file before it runs anything: plan and
// validate it, check the limits asked for each job (JobLimits, check_job_limits there), and choose the worker
// processes.
#pragma once

#include <featurelab/core/session.hpp>

#include "kernel/job/plan.hpp"
#include "execution/run.hpp"
#include <featurelab/core/catalog.hpp>

#include <spdlog/logger.h>

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

namespace featurelab {

// Plans the sweep, validates every point, checks the assertions against the probes, pins the packs the
// run will load and checks its components. Throws ConfigError (every problem, located) or PluginError;
// plan.warnings hold what does not stop the run, for the host to show first. The components are built under
// the jobs' limits (component_check.hpp); StoppedError when a stop signal came meanwhile.
RunPlan load_and_validate(const std::filesystem::path& file, const std::vector<std::string>& overrides, Catalog& catalog,
                          const JobLimits& limits = {});

// The worker processes for --jobs (0: the default): at most the CPUs this process may use, since more
// would only take turns on them (and hand their jobs threads the machine does not have). Throws
// ConfigError past a bound no machine has.
int worker_count(int requested, spdlog::logger& log);

// The options execute_run takes (log, stop flag and live progress left to the host). Throws
// ConfigError (--resume without a run, bad limits) or PluginError (a resumed run's packs changed).
RunOptions run_options(const RunPlan& plan, const RunRequest& request, spdlog::logger& log);

}  // namespace featurelab
