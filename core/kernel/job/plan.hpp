// From a pipeline to jobs: the [sweep] table's cartesian product × the seeds, each job a fully
// validated pipeline with a stable id (a hash of its operative configuration and seed).
//
//   [sweep]
//   "augment.0.use" = ["none", "mixup"]     # quoted dotted keys, or nested tables
//   model.width = [10, 100]
//   supervision = [                         # variants: several keys changed together, one name each
//     { name = "binary", "data.label" = "binary", "loss.use" = "logistic" },
//     { name = "cluster", "data.label" = "cluster", "loss.use" = "cross-entropy" },
//   ]
//   [[sweep.supervision]]                   # the same, one table per variant (long variants);
//   name = "binary"                         # a variant may change nothing (the baseline)
//
// Points are ordered by key (as sorted by name) then value (as written); jobs by point, then seed.
#pragma once

#include "kernel/config/pipeline.hpp"
#include <featurelab/core/catalog.hpp>

#include <toml++/toml.h>

#include <filesystem>
#include <string>
#include <utility>
#include <vector>

namespace featurelab {

// A sweep value's TOML text as run.json keeps it: strings double-quoted, floats in their shortest exact form (always
// with a '.' or an exponent), arrays as toml++ writes them.
std::string toml_text(const toml::node& node);

struct SweepAxis {
  std::string key;                  // "augment.0.use", or a variant axis' name ("supervision")
  std::vector<std::string> values;  // TOML text of each value: "\"mixup\"", "10"; a variant's "\"name\""
  // Per value, the "key=value" overrides it applies: {key=value} for a plain axis, the variant's
  // keys for a variant axis.
  std::vector<std::vector<std::string>> overrides;
  // file:line:col of each override's value in the [sweep] table, parallel to overrides: a point's
  // messages point at the value that made it.
  std::vector<std::vector<std::string>> locations;
  std::string where;  // file:line:col of the axis' list in the [sweep] table
  // [search]'s axes (search_space.hpp): value i goes with value i of the other zipped axes (one drawn point), not
  // with each of their values as a grid's axes do.
  bool zipped = false;
};

struct JobSpec {
  std::size_t index = 0;
  std::size_t point = 0;
  std::vector<std::pair<std::string, std::string>> assignments;  // this point's sweep values
  std::int64_t seed = 0;
  std::string id;    // 16 hex digits of the hash of the operative config and seed
  std::string dir;   // "0003-<id>"
  std::string point_label() const;  // "augment.0.use=mixup model.width=10", "" without a sweep
};

// A job's directory under RUN/jobs: its index (4 digits at least) and the first 8 hex digits of its id. Readers of
// run.json recompute it and refuse another: the stored name is never taken as a path.
std::string job_directory_name(std::size_t index, const std::string& id);

// "" while `dir` (RUN/jobs/<name>) is a directory of its own; otherwise what it is now: "it was replaced by a
// symbolic link to jobs/0000-…" or "it is not a directory". A job directory swapped for a link to another job's
// would make a job write over a finished one and a reader count that one twice: no job runs in it, no reader
// takes it as the job's.
std::string job_directory_problem(const std::filesystem::path& dir);

struct RunPlan {
  std::filesystem::path file;
  std::string text;                       // the input file as written
  std::vector<std::string> overrides;     // --set
  std::vector<SweepAxis> axes;
  std::vector<Pipeline> points;           // one validated pipeline per sweep point
  std::vector<JobSpec> jobs;
  std::vector<std::string> warnings;      // what does not stop the run but may surprise: printed first
  const Pipeline& pipeline_of(const JobSpec& job) const { return points[job.point]; }
};

// The most jobs (sweep points × seeds) one run plans: far above what a run can do in its time, and
// a sweep's size is refused with its count before any point is made.
inline constexpr std::size_t kMaxJobsPerRun = 100000;

// Throws ConfigError with every problem of every sweep point, located ("[sweep] model.widht").
RunPlan plan_run(const std::filesystem::path& file, const std::vector<std::string>& overrides,
                 const Catalog& catalog);

// The plan of a single operative config file (a job's config.toml), for `featurelab job`.
std::string job_id(const Pipeline& pipeline, std::int64_t seed);

}  // namespace featurelab
