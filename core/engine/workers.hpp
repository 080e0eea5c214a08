// Jobs in worker processes: a job whose plugin crashes (segfault, abort) fails alone and the run
// goes on. At most `workers` children run at once; each job is one fork.
#pragma once

#include "engine/progress_slot.hpp"

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
  const std::atomic<bool>* stop = nullptr;
  bool live = false;                 // draw one line per active job on the terminal
  spdlog::logger* log = nullptr;
  double job_timeout = 0;            // seconds, 0 = none: a job over it is killed and failed
  std::size_t job_memory_mb = 0;     // address-space limit of each worker, 0 = none
};

struct WorkerExit {
  bool ok = false;          // the child exited with status 0
  std::string reason;       // why not: "exit status 1", "crashed: Segmentation fault (signal 11)"
  double seconds = 0;
  std::string site;         // the plugin file it was executing when it crashed or was killed, if known
};

// Runs child(job, slot) in a forked process for each job of `todo`; the child's return value is
// its exit status. on_exit(job, exit) runs in the parent as each child ends. labels[job] names a
// job on progress lines.
void run_in_workers(const std::vector<std::size_t>& todo, const std::vector<std::string>& labels,
                    const std::function<int(std::size_t job, ProgressSlot* slot)>& child,
                    const std::function<void(std::size_t job, const WorkerExit& exit)>& on_exit,
                    const WorkerPoolOptions& options);

}  // namespace featurelab
