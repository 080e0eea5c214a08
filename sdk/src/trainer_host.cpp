// The part of every training loop that is not the trainer's own: finiteness with the source of a
// divergence, the evaluation schedule, the train.loss window, progress and stop requests.
#include <featurelab/error.hpp>
#include <featurelab/gradient_check.hpp>
#include <featurelab/trainer.hpp>

#include <cmath>
#include <numeric>

namespace featurelab {

namespace {

// Which part produced the first non-finite value; runs only once training has diverged.
std::string divergence_source(Model& model, const Batch& b, Scalar loss, Scalar penalty) {
  if (!model.parameters().allFinite()) return "the model's parameters (the optimizer's previous step)";
  if (!b.X().allFinite()) return "the data (a non-finite input)";
  Mat out(b.n, model.outputs());
  model.forward(b.X(), out);
  if (!out.allFinite()) return "the model (its outputs are not finite on finite parameters and inputs)";
  if (!std::isfinite(loss)) return "the loss (not finite on finite model outputs)";
  if (!std::isfinite(penalty)) return "a [[regularizer]] (its penalty)";
  return "the gradient (the model's backward pass or the loss's derivative, on finite outputs and loss)";
}

}  // namespace

void TrainerHost::start() {
  window_.clear();
  last_evaluated_ = -1;
  last_done_ = 0;
  checked_ = -1;
  gradient_checked_ = false;
  stopped_at_ = -1;
  for (Callback* callback : callbacks_) callback->begin(*this);
  evaluate(0);
}

void TrainerHost::save_parameters(Index step) {
  throw Error("this host keeps no job directory, so it cannot save the parameters of step " + std::to_string(step) +
              " (a checkpoint saves them in a featurelab job)");
}

void TrainerHost::note_metric(Index step, const std::string& metric, double value) {
  if (step != metrics_step_) {
    step_metrics_.clear();
    metrics_step_ = step;
  }
  step_metrics_[metric] = value;
}

void TrainerHost::check_gradient(const Batch& batch) {
  gradient_checked_ = true;
  GradientCheckOptions options;
  // A step that seldom moves a ReLU's pre-activations across their kink in float (as the contract test's).
  if (!kDouble) options.step = 2e-3;
  const GradientCheckResult result = featurelab::check_gradient(model(), loss(), batch, options);
  if (result.ok) return;
  throw Error("train.check_gradient: the gradient of the loss disagrees with finite differences on the first batch "
              "(relative error up to " + std::to_string(result.max_relative_error) + "), so the model's backward pass "
              "(or the loss's derivative) is wrong:\n" + result.report +
              "a layer's blocks are named after it (\"2.W\": layer 2's W); a hand-written model's backward() computes "
              "the block named; featurelab plugins check PACK runs the contract checks on each of a pack's components");
}

void TrainerHost::check_step(Index t, const Batch& batch, Scalar loss, Scalar penalty, VecRef grad) {
  if (std::isfinite(loss) && std::isfinite(penalty) && grad.allFinite()) {
    if (!gradient_checked_ && trainer().schedule().check_gradient()) check_gradient(batch);
    checked_ = t;
    for (Callback* callback : callbacks_) callback->before_update(*this, t, grad);
    return;
  }
  throw Error("training diverged at step " + std::to_string(t) + ": the loss is " + std::to_string(loss) +
              (std::isfinite(penalty) ? "" : ", the [[regularizer]] penalty " + std::to_string(penalty)) +
              (grad.allFinite() ? "" : " and the gradient is not finite") + "; it came from " +
              divergence_source(model(), batch, loss, penalty) + "; " + trainer().divergence_hint());
}

bool TrainerHost::end_step(Index done, double loss, StepEnd how) {
  // Whatever the trainer did (its own update rule, a projection, a solver), the step must leave
  // finite parameters and a finite objective.
  const Index t = done - 1;
  if (!model().parameters().allFinite()) {
    throw Error("training diverged at step " + std::to_string(t) + ": the parameters are not finite after the update; "
                "it came from " +
                (checked_ == t ? std::string("the update itself (the optimizer's step or the trainer's update rule, "
                                             "on a finite gradient)")
                               : std::string("the trainer's step")) +
                "; " + trainer().divergence_hint());
  }
  if (!std::isfinite(loss)) {
    throw Error("training diverged at step " + std::to_string(t) + ": the objective is " + std::to_string(loss) +
                " on finite parameters; it came from the trainer's objective; " + trainer().divergence_hint());
  }
  const Trainer& trainer_ = trainer();
  const Index total = trainer_.total_steps();
  last_done_ = done;
  show_progress(done, total, loss);
  if (how.restart_loss_window) window_.clear();
  window_.push_back(loss);
  while (static_cast<Index>(window_.size()) > trainer_.schedule().loss_window()) window_.pop_front();

  const bool stop = stop_requested();
  const bool evaluates = how.evaluate || stop || trainer_.schedule().evaluates(done, total);
  if (evaluates || trainer_.schedule().logs(done, total)) {
    record(done, "train.loss", std::accumulate(window_.begin(), window_.end(), 0.0) / static_cast<double>(window_.size()));
  }
  bool go_on = true;
  for (Callback* callback : callbacks_) go_on = callback->after_step(*this, done, loss) && go_on;
  if (evaluates) go_on = evaluate(done) && go_on;
  if (!go_on && stopped_at_ < 0) stopped_at_ = done;
  // Asked again: an evaluation may end the job itself ([prune]), at the step it measured.
  return !stop && !stop_requested() && stopped_at_ < 0;
}

void TrainerHost::finish() {
  if (!model().parameters().allFinite()) {
    throw Error("training diverged: the parameters are not finite when the trainer returned; " +
                trainer().divergence_hint());
  }
  // The probes always see the last step, also of a trainer that returned early or off schedule.
  if (last_evaluated_ >= 0 && last_done_ > last_evaluated_) evaluate(last_done_);
  for (Callback* callback : callbacks_) callback->end(*this, last_done_);
}

bool TrainerHost::evaluate(Index step) {
  if (step > 0) trainer().record_evaluation(*this, step);
  run_probes(step);
  last_evaluated_ = step;
  if (metrics_step_ != step) {  // nothing recorded at this step (no probes): the callbacks see no values
    step_metrics_.clear();
    metrics_step_ = step;
  }
  bool go_on = true;
  for (Callback* callback : callbacks_) go_on = callback->after_evaluation(*this, step, step_metrics_) && go_on;
  // A stop asked at step 0 (a target met before training) ends the job at its first end_step(), after one step.
  if (!go_on && step == 0) stopped_at_ = 0;
  return go_on;
}

}  // namespace featurelab
