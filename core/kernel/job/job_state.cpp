#include <featurelab/core/job_state.hpp>

namespace featurelab {

const char* to_string(JobState state) {
  switch (state) {
    case JobState::ok: return "ok";
    case JobState::failed: return "failed";
    case JobState::interrupted: return "interrupted";
    case JobState::running: return "running";
    case JobState::unfinished: return "unfinished";
    case JobState::pruned: return "pruned";
  }
  return "?";
}

std::optional<JobState> recorded_state(std::string_view status) {
  for (JobState state : {JobState::ok, JobState::failed, JobState::interrupted, JobState::pruned}) {
    if (status == to_string(state)) return state;
  }
  return std::nullopt;
}

}  // namespace featurelab
