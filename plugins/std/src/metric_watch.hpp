// A metric a callback watches at each evaluation (early-stopping, checkpoint): its value at the step, if recorded
// there; a name never recorded refused as a typo, naming the metrics that are; whether a value improves on the best
// so far, lower (min) or higher (max) by more than min_delta.
#pragma once

#include <featurelab/callback.hpp>

#include <optional>
#include <string>

namespace featurelab::std_pack {

class MetricWatch {
 public:
  // `who` names the callback in messages ("early-stopping").
  MetricWatch(std::string metric, bool minimize, double min_delta, std::string who);

  const std::string& metric() const { return metric_; }
  // Forgets the values seen (a job's begin()).
  void reset();
  // The metric's value at `step`, if it was recorded there (a probe's `every` skips some evaluations). Every probe
  // runs at step 0 and train.* metrics first appear at the first evaluation after it: a name not recorded by then is
  // a typo, and this throws, naming the metrics recorded at that step.
  std::optional<double> read(Index step, const StepMetrics& metrics);
  // Whether `value` (finite) improves on the best so far; the first value does.
  bool improves(double value) const;
  // Takes `value` at `step` as the best so far.
  void take(double value, Index step);
  bool minimize() const { return minimize_; }
  double best() const { return *best_; }
  Index best_step() const { return best_step_; }

 private:
  std::string metric_;
  bool minimize_;
  double min_delta_;
  std::string who_;
  std::optional<double> best_;
  Index best_step_ = 0;
  bool seen_ = false;
};

}  // namespace featurelab::std_pack
