// A job run in a worker process, as both `featurelab run` and `featurelab job` run it: what the
// worker does, and what the parent records once the worker has ended.
#pragma once

#include <featurelab/core/job_state.hpp>

#include "kernel/config/pipeline.hpp"
#include "kernel/job/plan.hpp"
#include "kernel/job/saved_params.hpp"
#include "execution/workers.hpp"

#include <atomic>
#include <cstdint>
#include <filesystem>
#include <string>

namespace spdlog {
class logger;
}

namespace featurelab {

struct ProgressSlot;

// In the worker: runs the job into `dir`, logging into its log.txt. Returns the worker's exit
// status: 0 finished, 3 interrupted (a stop request), 1 failed. Throws only when the job's
// directory cannot be written (the worker then reports the exception to the parent).
int run_job_in_worker(const Pipeline& pipeline, const JobSpec& spec, const std::filesystem::path& dir,
                      const std::string& label, Catalog& catalog, const std::atomic<bool>* stop, ProgressSlot* slot,
                      const SaveParams& save_params = {});

// How a job ended, as recorded: ok, interrupted or failed, and the failure's reason.
struct RecordedExit {
  JobState status;
  std::string error;
};

// In the parent, as the worker ends. A worker that died without writing its summary.json (a
// crash, a kill, a time-out) gets one naming the reason and where it was. Never throws: a summary
// that cannot be written (a full disk) leaves the job failed with both reasons, and the run goes on.
RecordedExit record_worker_exit(const Pipeline& pipeline, const JobSpec& spec, const std::filesystem::path& dir,
                                const WorkerExit& exit);

// The run's log line for a job that ended: "LABEL done in 2.1s", "LABEL interrupted", "LABEL failed: ...".
void log_job_end(spdlog::logger* log, const std::string& label, const RecordedExit& recorded, double seconds);

}  // namespace featurelab
