// Where, when and from what a run or a job was made: recorded in run.json (the command that wrote the run
// directory) and in each job's summary.json (the process that ran the job, which on a cluster is an array task
// of its own). The times are UTC, ISO 8601 ("2026-11-29T20:10:32Z").
#pragma once

#include <featurelab/core/provenance.hpp>

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace featurelab {

std::string utc_now();
std::string host_name();

// {"command": [...], "host", "pid", "build": {"git_revision", "git_dirty", "featurelab_version"},
//  "slurm": {"job_id", "array_job_id", "array_task_id", "restart_count", ...} (only under Slurm),
//  "started": started, "ended": ended (when given)}.
nlohmann::json provenance(const std::string& started, const std::string& ended = "");

// {path: sha256} of the data files this process read (featurelab/data_files.hpp); a file that cannot be read
// any more is recorded with the reason instead of a hash.
nlohmann::json data_file_hashes();

}  // namespace featurelab
