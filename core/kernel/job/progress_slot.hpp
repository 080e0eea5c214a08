// A job's progress, published by a worker process into memory shared with the parent, which
// draws one line per active job.
#pragma once

#include <atomic>
#include <cstdint>

namespace featurelab {

struct ProgressSlot {
  std::atomic<std::int64_t> step{0};
  std::atomic<std::int64_t> total{0};
  std::atomic<double> loss{0.0};
  std::atomic<double> started{0.0};  // seconds since the epoch of the steady clock
  // Written by the parent: the threads this job may use (its share of the cores once the queue is
  // empty, never more than the CPUs the run may use); the job adopts it at its next step.
  std::atomic<int> threads{1};
  // Written by the worker's signal handler (crash_site.hpp): the plugin file it was executing when
  // it crashed or was told it is about to be killed; read by the parent once the worker is gone.
  char crash_site[512] = {};
  // Written by the worker when an exception ends the job outside its own error handling (its
  // summary.json could not be written, say): the reason, for the parent to record.
  char failure[512] = {};
};

}  // namespace featurelab
