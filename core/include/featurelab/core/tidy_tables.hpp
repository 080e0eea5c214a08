// Runs in tidy form, for `featurelab export` (and readers such as pandas): one row per job, step and
// metric, and one per job and final metric, each row carrying its run, job, seed, sweep point, one
// column per sweep axis of any of the runs and, of several runs, one per setting whose value differs between
// them (their config.toml). Of several runs, a run that does not sweep a column's key shows the value it ran
// with (its config.toml's); a cell is empty where the run has no such key (or a single run no such axis).
// Each metric row's `source` says what measured it: "run" (the job's own training and probes) or "eval/NAME"
// (`featurelab eval RUN --name NAME` on the job's saved parameters, jobs/X/eval/NAME), so a study of saved
// weights sits in the same table as the training that made them.
#pragma once

#include <featurelab/types.hpp>

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

namespace featurelab {

// A sweep value as a column holds it: a number, a text (a string's content, or the TOML of an array or
// a table), or nothing (the run has no such axis).
struct AxisCell {
  enum class Kind { None, Number, Text };
  Kind kind = Kind::None;
  double number = 0;
  std::string text;
};

// The cell of a value as run.json stores it (its TOML text: "\"mixup\"", "10", "0.5", "true", "[1, 2]").
AxisCell axis_cell(const std::string& toml_text);

struct TidyJob {
  std::string run;      // the run directory as given
  std::size_t index = 0;
  std::string id;       // 16 hex digits
  std::string dir;      // its directory under RUN/jobs ("0003-<id's first 8>")
  std::int64_t seed = 0;
  std::size_t point = 0;
  std::string status;   // ok, failed, interrupted, missing
  std::vector<AxisCell> axes;  // parallel to TidyTables::axes
};

struct TidyMetric {
  std::size_t job = 0;  // into TidyTables::jobs
  Index step = 0;
  const std::string* metric = nullptr;  // into TidyTables::metric_names
  double value = 0;
  const std::string* source = nullptr;  // into TidyTables::sources
};

struct TidyFinal {
  std::size_t job = 0;
  const std::string* metric = nullptr;
  double value = 0;
  const std::string* source = nullptr;
};

struct TidyTables {
  std::vector<std::string> axes;  // every run's sweep keys, in order of first appearance, then the differing settings
  std::vector<TidyJob> jobs;
  std::vector<std::string> metric_names;  // sorted; rows point into it (reserved before, never reallocated)
  std::vector<std::string> sources;       // "run", then every "eval/NAME" of any job, sorted; rows point into it
  std::vector<TidyMetric> metrics;        // by job, metric, step
  std::vector<TidyFinal> finals;          // by job, metric
};

// Reads the runs' run.json, and every job's metrics.jsonl and summary.json, and those of its evaluations
// (jobs/X/eval/NAME): a job or an evaluation that has not finished contributes the steps it recorded to
// `metrics`, and nothing to `finals` (as in summary.csv); a finished one whose metrics.jsonl changed since is refused. `metric_patterns` (fnmatch: *, ?, [...]) keep only the
// matching metrics; empty keeps all. Throws featurelab::Error: a directory that is not a run, or a
// pattern that matches no metric of any run (naming the recorded ones).
TidyTables read_tidy_tables(const std::vector<std::filesystem::path>& runs, const std::vector<std::string>& metric_patterns);

}  // namespace featurelab
