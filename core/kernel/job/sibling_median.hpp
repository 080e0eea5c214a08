// The median rule of [prune] (pipeline.hpp: PruneRule), decided inside a job from the run's other jobs as they
// stand: their metrics.jsonl, read incrementally (each file from where the last evaluation left it; a line still
// being written is read next time). A job is pruned at an evaluation when its value is worse than the median of
// the other jobs' values at that step, once at least min_jobs of them have reached it. Which jobs have reached a step
// depends on how many run at once and in what order: with --jobs 1 the decisions are the same every time.
#pragma once

#include "kernel/config/pipeline.hpp"

#include <filesystem>
#include <map>
#include <optional>
#include <string>

namespace featurelab {

class SiblingMedian {
 public:
  // job_dir: this job's directory, RUN/jobs/NNNN-ID; the others are its siblings.
  SiblingMedian(PruneRule rule, std::filesystem::path job_dir);

  // The reason to stop at `step` with `value`, or nothing: "accuracy.test = 0.61 at step 300, below the median 0.74
  // of 5 other jobs there".
  std::optional<std::string> verdict(Index step, double value);

 private:
  struct Sibling {
    std::uintmax_t offset = 0;           // bytes of its metrics.jsonl read so far (whole lines)
    std::map<Index, double> values;      // the metric by step
  };
  void refresh();

  PruneRule rule_;
  std::filesystem::path job_dir_;
  std::map<std::string, Sibling> siblings_;  // by directory name
};

}  // namespace featurelab
