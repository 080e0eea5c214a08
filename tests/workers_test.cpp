// The worker pool (execution/workers.hpp): the threads it hands a job follow the CPUs this process may
// use, and a failure of the parent's own loop never leaves a worker behind.
#include "execution/allowed_cpus.hpp"
#include "kernel/job/progress_slot.hpp"
#include "execution/stop_signals.hpp"
#include "execution/workers.hpp"

#include <catch2/catch.hpp>

#include <cerrno>
#include <chrono>
#include <stdexcept>
#include <thread>

#include <sys/wait.h>

using namespace featurelab;

TEST_CASE("the threads handed to a job never exceed the CPUs this process may use") {
  WorkerPoolOptions options;
  options.workers = 1;
  options.cores = 4096;  // as `--jobs 4096` once handed every core to the last job
  std::string reason;
  run_in_workers(
      {0}, {"job"},
      [](std::size_t, ProgressSlot* slot) {
        // The parent shares the cores as soon as no job waits; give it a moment.
        std::this_thread::sleep_for(std::chrono::milliseconds(300));
        return 10 + slot->threads.load();
      },
      [&](std::size_t, const WorkerExit& exit) {
        reason = exit.reason;
        return exit.ok;
      },
      options);
  CHECK(reason == "exit status " + std::to_string(10 + allowed_cpus()));
}

TEST_CASE("an exception while recording a job stops and reaps the workers still running") {
  WorkerPoolOptions options;
  options.workers = 2;
  const auto start = std::chrono::steady_clock::now();
  CHECK_THROWS_WITH(run_in_workers(
                        {0, 1}, {"quick", "slow"},
                        [](std::size_t job, ProgressSlot*) {
                          // The slow job runs until asked to stop (its handlers take SIGTERM as that).
                          for (int i = 0; job == 1 && i < 2000 && !stop_requested_flag().load(); ++i) {
                            std::this_thread::sleep_for(std::chrono::milliseconds(10));
                          }
                          return 0;
                        },
                        [](std::size_t, const WorkerExit&) -> bool { throw std::runtime_error("cannot record the job"); },
                        options),
                    "cannot record the job");
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  CHECK(seconds < 10);  // the slow job would have taken 20 s
  int status = 0;
  CHECK(::waitpid(-1, &status, WNOHANG) == -1);  // no child left, running or unreaped
  CHECK(errno == ECHILD);
}
