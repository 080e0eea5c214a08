// The early-stopping rule (early_stopping_callback.hpp).
#include "early_stopping_callback.hpp"

#include <featurelab/error.hpp>
#include <featurelab/trainer.hpp>

#include <cmath>

namespace featurelab::std_pack {

Schema EarlyStoppingCallback::schema() {
  Schema s;
  s.string("monitor", "", "the metric to watch, as metrics.jsonl names it: test.accuracy (a probe's), train.loss")
      .required();
  s.choice("mode", "min", {"min", "max"}, "min: lower is better (a loss), max: higher is better (an accuracy)");
  s.integer("patience", 5, "evaluations in a row without improvement before the job stops; 0: never for this reason")
      .min(0);
  s.real("min_delta", 0.0, "an improvement is a change by more than this in the better direction").min(0);
  s.real("target", Automatic{"no target"}, "stop once the metric is ≤ target (mode = min) or ≥ target (max)");
  s.integer("from_step", 0, "evaluations before this step neither stop the job nor count").min(0);
  return s;
}

EarlyStoppingCallback::EarlyStoppingCallback(const Params& params, Context&)
    : watch_(params.str("monitor"), params.str("mode") == "min", params.real("min_delta"), "early-stopping"),
      patience_(params.integer("patience")),
      target_(params.real_or_auto("target")),
      from_step_(params.integer("from_step")) {
  if (patience_ == 0 && !target_) {
    throw Error("patience = 0 and no target: this callback would never stop the job; set patience ≥ 1 or a target");
  }
}

void EarlyStoppingCallback::begin(TrainerHost&) {
  watch_.reset();
  waited_ = 0;
}

bool EarlyStoppingCallback::reaches_target(double value) const {
  return target_ && (watch_.minimize() ? value <= *target_ : value >= *target_);
}

bool EarlyStoppingCallback::after_evaluation(TrainerHost& host, Index step, const StepMetrics& metrics) {
  const std::optional<double> value = watch_.read(step, metrics);
  if (!value || step < from_step_) return true;
  if (!std::isfinite(*value)) return true;  // a probe's NaN (an empty split) neither improves nor counts
  if (watch_.improves(*value)) {
    watch_.take(*value, step);
    waited_ = 0;
  } else {
    ++waited_;
  }
  host.record(step, "early-stopping.best", watch_.best());
  host.record(step, "early-stopping.best_step", static_cast<double>(watch_.best_step()));
  if (reaches_target(*value) || (patience_ > 0 && waited_ >= patience_)) {
    host.record(step, "early-stopping.stopped_at", static_cast<double>(step));
    return false;
  }
  return true;
}

}  // namespace featurelab::std_pack
