// How a job stands: one vocabulary for the runs, the readers of results and the cluster commands.
// A finished job records ok, failed, interrupted or pruned in its summary.json ("status"; pruned: stopped early by
// the pipeline's [prune] rule, its metrics kept, finished as an ok job is); running and unfinished
// are read from the run directory and never written: running while another process holds the job (a lock, or
// `featurelab run` holding the run with the job's log begun), unfinished otherwise without a summary (not
// started yet, or stopped by a kill before it could write one).
#pragma once

#include <optional>
#include <string_view>

namespace featurelab {

enum class JobState { ok, failed, interrupted, running, unfinished, pruned };

// "ok", "failed", "interrupted", "running", "unfinished", "pruned": the word in summary.json, export tables,
// featurelab.load and featurelab status.
const char* to_string(JobState state);

// The state a summary.json's "status" records (ok, failed, interrupted, pruned); nothing for any other text.
std::optional<JobState> recorded_state(std::string_view status);

}  // namespace featurelab
