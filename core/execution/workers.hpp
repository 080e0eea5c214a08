// Jobs in worker processes: a job whose plugin crashes (segfault, abort) fails alone and the run
// goes on. At most `workers` children run at once; each job is one fork.
//
// A worker runs in a process group of its own, so that a time-out or memory kill takes whatever
// the job started with it, and dies with its parent (PR_SET_PDEATHSIG), so that no worker outlives
// a parent killed with -9. A stop request (stop_signals.hpp) is forwarded to the workers, which
// finish their step. The parent never leaves with workers running: an exception from the loop
// first stops and reaps them.
#pragma once

#include "kernel/job/progress_slot.hpp"

#include <atomic>
#include <cstddef>
#include <functional>
#include <string>
#include <vector>

namespace spdlog {
class logger;
}

namespace featurelab {

struct WorkerPoolOptions {
  int workers = 1;
  int cores = 0;                     // threads shared by the running jobs once none waits; 0 = workers
                                     // (capped at the CPUs this process may use)
  const std::atomic<bool>* stop = nullptr;
  bool live = false;                 // draw one line per active job on the terminal
  spdlog::logger* log = nullptr;
  double job_timeout = 0;            // seconds, 0 = none: a job over it is killed and failed
  std::size_t job_memory_mb = 0;     // memory limit of each worker (job_memory_limit.hpp), 0 = none
  // Asked between polls: a non-empty answer (the run directory is gone) ends the pool at once,
  // its workers killed, since nothing they write can be recorded any more.
  std::function<std::string()> lost;
};

struct WorkerExit {
  bool ok = false;          // the child exited with status 0
  std::string reason;       // why not: "exit status 1", "crashed: Segmentation fault (signal 11)"
  double seconds = 0;
  std::string site;         // the plugin file it was executing when it crashed or was killed, if known
  std::int64_t step = 0;    // the last training step it reported, of `total`
  std::int64_t total = 0;
};

struct WorkerPoolReport {
  // Jobs of `todo` that never started because no worker process could be made (fork failed with
  // none running), and why; the others finished, failed or were interrupted.
  std::size_t not_started = 0;
  std::string not_started_reason;
  // Set when `lost` answered: the running jobs were killed and no other started.
  std::string lost_reason;
};

// Runs child(job, slot) in a forked process for each job of `todo`; the child's return value is
// its exit status. on_exit(job, exit) runs in the parent as each child ends and says whether the job ended ok (its
// own record, not the exit status alone: progress lines count it as done or failed). labels[job] names a
// job on progress lines. When fork() fails the pool goes on with the workers it has; with none, it
// stops starting jobs and says so in the report.
WorkerPoolReport run_in_workers(const std::vector<std::size_t>& todo, const std::vector<std::string>& labels,
                    const std::function<int(std::size_t job, ProgressSlot* slot)>& child,
                    const std::function<bool(std::size_t job, const WorkerExit& exit)>& on_exit,
                    const WorkerPoolOptions& options);

}  // namespace featurelab
