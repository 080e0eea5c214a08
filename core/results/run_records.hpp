// Reading finished jobs back from a run directory, and aggregating them into summary.csv.
#pragma once

#include "kernel/job/saved_params.hpp"
#include <featurelab/core/job_state.hpp>

#include "kernel/job/plan.hpp"

#include <filesystem>
#include <map>
#include <string>
#include <vector>

namespace featurelab {

// The layout of run.json; bumped when it changes, so an old directory is refused, not misread.
inline constexpr int kRunFormat = 1;

// run.json: the sweep axes and every job of a run directory.
struct StoredRun {
  std::vector<SweepAxis> axes;
  std::vector<JobSpec> jobs;
  std::string version;
  std::string name;
  SaveParams save_params;  // what `run --save-params` asked for; `featurelab job` does the same
};

// Throws featurelab::Error naming the file when it is missing, of another format, or unreadable.
StoredRun read_run_record(const std::filesystem::path& run_dir);

struct JobRecord {
  JobSpec spec;
  JobState status = JobState::unfinished;  // ok, failed, interrupted; unfinished: no summary.json
  std::string error;
  double seconds = 0;
  std::map<std::string, std::vector<std::pair<Index, double>>> history;
  std::map<std::string, double> final_values;
  bool damaged = false;  // finished, but its metrics.jsonl is not what it wrote: failed, no data
  bool ok() const { return status == JobState::ok; }
};

// Reads summary.json and metrics.jsonl. An unfinished job's file is read up to its first line that does not parse
// (a line cut by a kill). A finished job's file must be whole: every line a record, and the line count and sha256
// that its summary.json records ("metrics_file"; a summary from before that record: the last value of each metric
// equal to its "final"). A file that differs is damage after the job ended (a disk, a sync tool, an editor): the job
// is `damaged`, failed, its error naming the file, the line and how to run it again, and none of its values is kept.
// `remedy`, when given, replaces the way to run it again in that error (an evaluation's directory: eval again).
JobRecord load_job(const std::filesystem::path& job_dir, const JobSpec& spec, const std::string& remedy = {});

// Throws featurelab::Error listing the damaged jobs (at most a few, then a count), for readers whose output would
// otherwise silently lack them: export, featurelab.load, plot and report.
void refuse_damaged_jobs(const std::vector<JobRecord>& jobs);

// The mean of values and their sample standard deviation (n − 1; 0 for one value): summary.csv's, the run's closing
// lines', the plots' and serve's bands, all the same numbers.
struct MeanSd {
  double mean = 0, sd = 0;
};
MeanSd mean_and_sd(const std::vector<double>& values);

struct SummaryRow {
  std::size_t point = 0;
  std::string label;  // "model.width=10 augment.0.use=mixup"
  std::vector<std::pair<std::string, std::string>> assignments;
  std::string metric;
  std::size_t n = 0;
  double mean = 0, std = 0, min = 0, max = 0;
};

// One row per sweep point and metric (final values of the finished jobs), over seeds.
std::vector<SummaryRow> summarize(const std::vector<JobRecord>& jobs);

// summary.csv: point, one column per sweep key, metric, n, mean, std, min, max. Written atomically.
std::string csv_field(std::string text);  // quoted when it holds a comma, quote or newline
void write_summary_csv(const std::filesystem::path& file, const std::vector<SweepAxis>& axes,
                       const std::vector<JobRecord>& jobs);

}  // namespace featurelab
