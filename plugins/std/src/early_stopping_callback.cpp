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
    : monitor_(params.str("monitor")),
      minimize_(params.str("mode") == "min"),
      patience_(params.integer("patience")),
      min_delta_(params.real("min_delta")),
      target_(params.real_or_auto("target")),
      from_step_(params.integer("from_step")) {
  if (monitor_.empty()) throw Error("monitor is empty; name a metric, e.g. monitor = \"test.accuracy\"");
  if (patience_ == 0 && !target_) {
    throw Error("patience = 0 and no target: this callback would never stop the job; set patience ≥ 1 or a target");
  }
}

void EarlyStoppingCallback::begin(TrainerHost&) {
  best_.reset();
  best_step_ = 0;
  waited_ = 0;
  seen_ = false;
}

bool EarlyStoppingCallback::improves(double value) const {
  if (!best_) return true;
  return minimize_ ? value < *best_ - min_delta_ : value > *best_ + min_delta_;
}

bool EarlyStoppingCallback::reaches_target(double value) const {
  return target_ && (minimize_ ? value <= *target_ : value >= *target_);
}

bool EarlyStoppingCallback::after_evaluation(TrainerHost& host, Index step, const StepMetrics& metrics) {
  const auto found = metrics.find(monitor_);
  if (found == metrics.end()) {
    // Every probe runs at step 0, and train.* metrics first appear at the first evaluation after it: a name never
    // recorded by then is a typo, not a probe's `every`.
    const bool recorded_by_now = monitor_.rfind("train.", 0) == 0 ? step > 0 : true;
    if (!seen_ && recorded_by_now && !metrics.empty()) {
      std::string known;
      for (const auto& [name, value] : metrics) known += (known.empty() ? "" : ", ") + name;
      throw Error("early-stopping: monitor = \"" + monitor_ + "\" is not recorded at step " + std::to_string(step) +
                  " (recorded there: " + known + "); name one of them, or add the probe that records it");
    }
    return true;
  }
  seen_ = true;
  const double value = found->second;
  if (step < from_step_) return true;
  if (!std::isfinite(value)) return true;  // a probe's NaN (an empty split) neither improves nor counts
  if (improves(value)) {
    best_ = value;
    best_step_ = step;
    waited_ = 0;
  } else {
    ++waited_;
  }
  host.record(step, "early-stopping.best", *best_);
  host.record(step, "early-stopping.best_step", static_cast<double>(best_step_));
  if (reaches_target(value) || (patience_ > 0 && waited_ >= patience_)) {
    host.record(step, "early-stopping.stopped_at", static_cast<double>(step));
    return false;
  }
  return true;
}

}  // namespace featurelab::std_pack
