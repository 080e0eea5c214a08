// Callback `checkpoint`: saves the network's parameters during training, as `run --save-params` saves them
// (jobs/X/params/step<N>/<block>.npy, their hashes in the job's summary.json; `featurelab eval RUN --step N` measures
// them again): after every `every`-th step, and, with `monitor`, at each evaluation where that metric is the best so
// far (the checkpoint a validation metric picks, DomainBed's protocol). Metrics: checkpoint.best_step at each
// evaluation it watched (with monitor).
#pragma once

#include "metric_watch.hpp"

#include <featurelab/callback.hpp>
#include <featurelab/params.hpp>

#include <optional>

namespace featurelab::std_pack {

class CheckpointCallback : public Callback {
 public:
  static constexpr Doc kDoc =
      "Saves the parameters every N steps and/or whenever a monitored metric is the best so far, as run "
      "--save-params does (featurelab eval measures them); records checkpoint.best_step.";
  static Schema schema();
  static std::vector<std::string> metrics() { return {"best_step"}; }
  static std::map<std::string, Value> test_params() { return {{"every", std::int64_t(10)}}; }
  CheckpointCallback(const Params& params, Context& context);

  void begin(TrainerHost& host) override;
  bool after_step(TrainerHost& host, Index done, double loss) override;
  bool after_evaluation(TrainerHost& host, Index step, const StepMetrics& metrics) override;

 private:
  Index every_;
  std::optional<MetricWatch> watch_;
};

}  // namespace featurelab::std_pack
