// own-host PIPELINE OUT: plans a pipeline, runs it and reads its run directory back, through the core's facade, as a
// third party's host would (a notebook kernel, a job scheduler, a web service).
#include <featurelab/core/errors.hpp>
#include <featurelab/core/run_directory.hpp>
#include <featurelab/core/session.hpp>

#include <spdlog/sinks/stdout_sinks.h>
#include <spdlog/spdlog.h>

#include <iostream>

int main(int argc, char** argv) {
  if (argc != 3) {
    std::cerr << "usage: own-host PIPELINE OUT\n";
    return featurelab::kExitBadInput;
  }
  try {
    featurelab::Session session({}, spdlog::stderr_logger_mt("own-host"));
    const featurelab::Plan plan = session.plan(argv[1], {"experiment.seeds=[0, 1]", "train.steps=100", "assert=[]"});
    std::cout << plan.name() << ": " << plan.jobs() << " job(s)\n";
    featurelab::RunRequest request;
    request.out = argv[2];
    request.jobs = 2;
    const featurelab::RunOutcome outcome = session.run(plan, request);
    const featurelab::RunStatus status = featurelab::RunDirectory(outcome.out).status();
    std::cout << "exit " << outcome.exit_code << ", " << status.in(featurelab::JobState::ok).size() << " ok of "
              << status.jobs.size() << "\n";
    return outcome.exit_code;
  } catch (const featurelab::ConfigError& e) {
    for (const auto& d : e.diagnostics()) std::cerr << "error: " << d.format() << "\n";
    return featurelab::kExitBadInput;
  } catch (const std::exception& e) {
    std::cerr << "error: " << e.what() << "\n";
    return featurelab::kExitPluginRefused;
  }
}
