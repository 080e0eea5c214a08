// A validated pipeline: every component resolved to a catalog entry with checked parameters.
#pragma once

#include <featurelab/core/pack_record.hpp>

#include <featurelab/params.hpp>

#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace featurelab {

struct ComponentConfig {
  Kind kind = Kind::Model;
  std::string path;      // where in the pipeline: "model", "probe.1"
  std::string name;      // instance name: "accuracy" (metrics are prefixed with it)
  std::string use;       // as written: "two-layer" or "std:two-layer"
  ComponentRef ref;
  Params params;         // every schema entry, defaults filled
  std::string where;     // file:line of the section
  // A probe's `every = N`: measured at step 0, at the last step and at the evaluations whose step is a
  // multiple of N (0: those two only), so a costly probe need not run at every eval_every.
  std::optional<Index> every;  // absent: at every evaluation
};

// data.train / data.test = "all".
inline constexpr Index kAllSamples = -1;

// over = "80%": the share of a point's seeds that must hold an assertion, in (0, 1]; none for
// another `over` (every-seed, mean, any) or a malformed share.
inline std::optional<double> seed_share(const std::string& over) {
  if (over.size() < 2 || over.back() != '%') return std::nullopt;
  const std::string number = over.substr(0, over.size() - 1);
  if (number.find_first_not_of("0123456789.") != std::string::npos || number.front() == '.') return std::nullopt;
  char* end = nullptr;
  const double percent = std::strtod(number.c_str(), &end);
  if (end != number.c_str() + number.size() || !(percent > 0) || percent > 100) return std::nullopt;
  return percent / 100;
}

struct AssertSpec {
  std::string expect;    // "accuracy.test >= 0.9"
  std::string at = "final";
  std::string over = "every-seed";  // every-seed | mean | any | "80%" (a share of the seeds)
  std::string points;    // `where = "key=value ..."`: the sweep points it is checked at (all if empty)
  // `control = "key=value ..."` (or a list): where the same expectation must NOT hold, each a
  // selector that changes keys of the assertion's points, or its step (step=0: the untrained network).
  std::vector<std::string> controls;
  bool holds_at_init = false;  // declared: about the initial state or an invariant, so holding at step 0 is expected
  std::string where;     // file:line of the block
};

// [model] init_from: the parameters a job starts from instead of its random initialisation, another job's saved
// blocks (run --save-params), checked like `featurelab eval`'s (sha256, number type, shape). Written as a saved step
// ("RUN/jobs/JOB/params/step000600"), a job ("RUN/jobs/JOB": its last saved step), a run ("RUN": the job of this
// job's seed), or a table { run = "RUN", point = "key=value …", step = N } (or { job = "RUN/jobs/JOB", step = N });
// held here in that table's form, paths absolute.
struct InitSource {
  std::filesystem::path run;  // a run directory: the job with this job's seed at `point`
  std::filesystem::path job;  // or one job's directory
  std::string point;          // with `run`: "key=value …" naming the sweep point (empty: the run's only one)
  std::optional<Index> step;  // a saved step; none: the job's last
  std::string where;          // file:line of [model]
};

// [prune]: a job stops early, as `pruned`, when at an evaluation its metric is worse than the median of the other jobs'
// values of the run at that step (the median rule; kernel/job/sibling_median.hpp).
struct PruneRule {
  std::string metric;     // a probe's metric, "accuracy.test"
  bool maximize = true;   // goal = "max" (default) or "min"
  Index after = 0;        // no job is pruned at a step before this
  Index min_jobs = 3;     // the median of at least this many other jobs' values at the step
  std::string where;      // file:line of [prune]
};

struct Pipeline {
  std::filesystem::path file;
  std::string name;
  std::string description;
  std::vector<std::int64_t> seeds{0};
  double timeout = 0;    // seconds per job; 0 = none (--job-timeout overrides)
  // "final" or "every:N": the parameters its jobs save, as run --save-params (which overrides it); "" = none. A
  // pipeline whose product is weights (a pretraining that others start from: [model] init_from) says so itself.
  std::string save_params;

  ComponentConfig data;
  Index train_size = 1000;  // kAllSamples: the whole split of a finite distribution
  Index test_size = 1000;
  std::vector<ComponentConfig> transforms;
  std::vector<ComponentConfig> augments;
  ComponentConfig model;
  std::optional<InitSource> init_from;  // [model] init_from
  ComponentConfig loss;
  std::vector<ComponentConfig> regularizers;  // penalties added to the loss, in order
  ComponentConfig optimizer;
  ComponentConfig trainer;
  std::vector<ComponentConfig> probes;
  std::vector<ComponentConfig> attacks;
  std::vector<ComponentConfig> callbacks;  // run by the training loop at its points (callback.hpp), in order
  std::vector<AssertSpec> asserts;
  std::optional<PruneRule> prune;

  // The operative configuration: every parameter actually used, defaults included, as TOML.
  std::string operative_toml() const;
  // What a job computes, apart from its seed: the operative configuration without [experiment]
  // (name, description, seeds, timeout: a job's numbers are the same whatever they are) and without
  // [[assert]] (checked on the results afterwards). A job's id is its hash with the seed.
  std::string computed_toml() const;
};

}  // namespace featurelab
