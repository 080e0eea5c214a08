// Checkpoints by step and by the best value of a metric (checkpoint_callback.hpp).
#include "checkpoint_callback.hpp"

#include <featurelab/error.hpp>
#include <featurelab/trainer.hpp>

#include <cmath>

namespace featurelab::std_pack {

Schema CheckpointCallback::schema() {
  Schema s;
  s.integer("every", 0, "save after every N-th step (N, 2N, …); 0: not by step").min(0);
  s.string("monitor", "", "also save at each evaluation where this metric is the best so far (test.accuracy, "
                          "train.loss); empty: not by a metric");
  s.choice("mode", "min", {"min", "max"}, "the monitored metric: min, lower is better; max, higher is better");
  return s;
}

CheckpointCallback::CheckpointCallback(const Params& params, Context&) : every_(params.integer("every")) {
  if (const std::string& monitor = params.str("monitor"); !monitor.empty()) {
    watch_.emplace(monitor, params.str("mode") == "min", 0.0, "checkpoint");
  }
  if (every_ == 0 && !watch_) {
    throw Error("every = 0 and no monitor: this checkpoint would save nothing; set every = N (steps) or monitor = "
                "\"<metric>\" (the best value's parameters)");
  }
}

void CheckpointCallback::begin(TrainerHost&) {
  if (watch_) watch_->reset();
}

bool CheckpointCallback::after_step(TrainerHost& host, Index done, double) {
  if (every_ > 0 && done % every_ == 0) host.save_parameters(done);
  return true;
}

bool CheckpointCallback::after_evaluation(TrainerHost& host, Index step, const StepMetrics& metrics) {
  if (!watch_) return true;
  const std::optional<double> value = watch_->read(step, metrics);
  if (!value || !std::isfinite(*value)) return true;
  if (watch_->improves(*value)) {
    watch_->take(*value, step);
    host.save_parameters(step);
  }
  host.record(step, "checkpoint.best_step", static_cast<double>(watch_->best_step()));
  return true;
}

}  // namespace featurelab::std_pack
