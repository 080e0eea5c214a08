// Callback `early-stopping`: ends a job once a metric it watches stops improving (patience), or once it reaches a
// target: the usual early stopping on a validation metric, and "train until the training loss is below ε" or "until
// every training point is fit", which the papers' protocols ask for (callback.hpp).
//
// At each evaluation where `monitor` was recorded (evaluations it is missing at are skipped, as a probe with
// `every` skips some): the value improves on the best so far when it is lower (mode = "min") or higher ("max") by
// more than min_delta; after `patience` evaluations in a row without improvement, or once the value reaches
// `target` (≤ target for min, ≥ for max), the job stops there. Evaluations before from_step neither stop it nor
// count. Metrics, at every evaluation it watched: early-stopping.best (the best value so far) and
// early-stopping.best_step; once, where it stops: early-stopping.stopped_at (the step).
#pragma once

#include "metric_watch.hpp"

#include <featurelab/callback.hpp>
#include <featurelab/params.hpp>

#include <optional>
#include <string>

namespace featurelab::std_pack {

class EarlyStoppingCallback : public Callback {
 public:
  static constexpr Doc kDoc =
      "Stops the job once a recorded metric stops improving (patience evaluations) or reaches a target; records "
      "early-stopping.best, best_step and stopped_at.";
  static Schema schema();
  static std::vector<std::string> metrics() { return {"best", "best_step", "stopped_at"}; }
  static std::map<std::string, Value> test_params() { return {{"monitor", std::string("train.loss")}}; }
  EarlyStoppingCallback(const Params& params, Context& context);

  void begin(TrainerHost& host) override;
  bool after_evaluation(TrainerHost& host, Index step, const StepMetrics& metrics) override;

 private:
  bool reaches_target(double value) const;

  MetricWatch watch_;
  Index patience_;
  std::optional<double> target_;
  Index from_step_;
  Index waited_ = 0;  // evaluations since the last improvement
};

}  // namespace featurelab::std_pack
