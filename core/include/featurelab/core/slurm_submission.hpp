// `featurelab submit`: a prepared run's jobs as Slurm job arrays. Each array task runs `featurelab job RUN
// --indices ...` for jobs_per_task jobs on its cpus_per_task CPUs. Arrays are cut at the cluster's
// MaxArraySize (task ids of one array run from 0 to MaxArraySize - 1), so a sweep of any size goes in; every
// array asks to be requeued on preemption or node failure, and for SIGTERM ahead of its time limit, which ends
// the running jobs after their step as interrupted (featurelab status lists them for resubmission).
#pragma once

#include <cstddef>
#include <filesystem>
#include <set>
#include <string>
#include <vector>

namespace featurelab {

// How long a call of Slurm's client may take before submit gives up on it: a controller that does not answer must
// not hold the command for ever (Slurm's own clients retry for about MessageTimeout, 10 s by default).
inline constexpr double kSlurmClientSeconds = 60;

struct SlurmSubmission {
  std::filesystem::path run_dir;
  std::string run_name;
  std::vector<std::size_t> indices;  // the jobs to submit, in order
  std::size_t jobs_per_task = 1;
  int cpus_per_task = 1;
  std::string partition;  // "" : the cluster's default
  std::string time;       // sbatch's --time ("1:00:00"); "" : the partition's default
  int signal_seconds = 60;                   // SIGTERM this long before the time limit
  std::vector<std::string> sbatch_options;   // further #SBATCH lines, as given ("--mem=4G")
  std::vector<std::string> featurelab;       // the command that runs a job: this executable and its global options
  double client_timeout = kSlurmClientSeconds;  // seconds scontrol, sbatch and squeue may take (--client-timeout)
};

struct SbatchScript {
  std::filesystem::path file;
  std::string text;
  std::size_t tasks = 0;
  std::vector<std::size_t> indices;  // the jobs it runs
};

// The cluster's MaxArraySize, from `scontrol show config`. Throws Error saying why when scontrol cannot tell.
std::size_t cluster_max_array_size(double timeout_seconds = kSlurmClientSeconds);

// The jobs of earlier submissions (RUN/slurm/submissions.jsonl) whose array tasks Slurm still holds, pending or
// running (`squeue --me --array`), so that `submit` again does not queue them a second time. Empty without earlier
// submissions, without asking Slurm. Throws Error saying why when squeue cannot tell.
std::set<std::size_t> jobs_still_queued(const std::filesystem::path& run_dir, std::size_t job_count, double timeout_seconds);

// The scripts, written to RUN/slurm/submit-<n>-<k>.sbatch (submission n, array k): tasks of jobs_per_task jobs, in arrays of at most
// max_array_size tasks.
std::vector<SbatchScript> write_sbatch_scripts(const SlurmSubmission& submission, std::size_t max_array_size);

// Submits a script with `sbatch --parsable` and records it in RUN/slurm/submissions.jsonl; returns the Slurm
// job id of the array. Throws Error with sbatch's message when it refuses, does not answer in time, or prints no job
// id (then nothing is recorded: what was queued, if anything, is squeue's to tell).
std::string submit_sbatch_script(const SlurmSubmission& submission, const SbatchScript& script);

}  // namespace featurelab
