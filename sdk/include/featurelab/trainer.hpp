// A trainer runs the training loop. The core hands it a TrainerHost: the model, loss, optimizer,
// data and augment chain of the job, and the loop's shared part, written once here and not in
// each trainer: the finiteness checks that name the source of a divergence, the evaluation
// schedule, progress and stop requests, and the pipeline's [[callback]]s (callback.hpp: early
// stopping, gradient clipping) at fixed points (TrainerHost::start / check_step / end_step /
// finish). A trainer writes only what is special to it: how it draws batches, its phases, its
// update rule.
//
//   host.start();                                     // probes at step 0
//   for (Index t = 0; t < steps; ++t) {
//     Batch b = host.augment(batches.next(host, batch, fresh, shuffle, rng), rng);
//     const Scalar loss = host.loss().evaluate_with_gradient(host.model(), b, grad);
//     const Scalar penalty = host.regularize(b, t, grad);
//     host.check_step(t, b, loss, penalty, grad);     // throws, naming the source, on NaN or Inf
//     host.optimizer().step(host.model().parameters().head(p), grad, t);
//     if (!host.end_step(t + 1, loss)) return;        // train.loss, probes when due; false = stop
//   }
#pragma once

#include <featurelab/callback.hpp>
#include <featurelab/distribution.hpp>
#include <featurelab/eval_schedule.hpp>
#include <featurelab/loss.hpp>
#include <featurelab/optimizer.hpp>

#include <deque>
#include <string>
#include <vector>

namespace featurelab {

class Trainer;

// What end_step does besides the schedule.
struct StepEnd {
  bool evaluate = false;             // run the probes now as well (a phase boundary, a switch-on step)
  bool restart_loss_window = false;  // train.loss averages from this step on (a new stage)
};

class TrainerHost {
 public:
  virtual ~TrainerHost() = default;

  virtual Model& model() = 0;
  virtual Loss& loss() = 0;
  virtual Optimizer& optimizer() = 0;
  virtual Dataset& train_data() = 0;
  virtual const Dataset& test_data() const = 0;
  virtual Distribution& distribution() = 0;
  // Runs the dataset transforms of the pipeline on a fresh sample (fresh-samples-per-step).
  virtual void transform_fresh(Dataset& fresh, Rng& rng) = 0;

  // Applies the pipeline's augments in order; returns in itself when there are none. The
  // returned batch stays valid until the next call.
  virtual Batch augment(const Batch& in, Rng& rng) = 0;
  // Adds the pipeline's [[regularizer]] penalties for this step's batch: their gradients into
  // grad, their sum as the return value (0 without regularizers). Call it after the loss gradient.
  virtual Scalar regularize(const Batch& batch, Index step, VecRef grad) = 0;
  // Records one of the trainer's own metrics ("train.t1"); train.loss is end_step's.
  virtual void record(Index step, const std::string& metric, double value) = 0;
  // Saves the model's parameter blocks as they are after `step` steps, as `run --save-params` does
  // (jobs/X/params/step<N>/<block>.npy, their hashes in summary.json; `featurelab eval` measures them):
  // for checkpoint callbacks. Once per step. A host without a job directory throws.
  virtual void save_parameters(Index step);

  // The loop's shared part (sdk/src/trainer_host.cpp), with the callbacks at its points (callback.hpp).
  //
  // Before the first step, after the trainer's own checks and set-up: the callbacks' begin(), then the probes at
  // step 0 (and the callbacks' after_evaluation).
  void start();
  // After the loss gradient and regularize(), before the update of 0-based step t: throws the
  // divergence error (the step, the values, the part that produced the first non-finite value,
  // the trainer's divergence_hint()) unless the loss, the penalty and the gradient are finite. With
  // train.check_gradient, the first call also checks the model's gradient of the loss on this batch
  // against finite differences, and throws naming the blocks and coordinates that disagree. Then the
  // callbacks' before_update() may change grad (clip it): the update must use grad after this call.
  void check_step(Index t, const Batch& batch, Scalar loss, Scalar penalty, VecRef grad);
  // After the update, with `done` steps done and the step's objective: checks the objective and
  // the parameters (whatever the trainer did), reports progress, records train.loss (the
  // schedule's window mean) and the trainer's record_evaluation() and runs the probes when the
  // schedule or `how` says so, or the user asked to stop; then the callbacks' after_step() and
  // after_evaluation(). False: return from train() now (the user asked to stop, or a callback did).
  bool end_step(Index done, double loss, StepEnd how = {});
  // Called by the core after train() returns: the parameters are finite and the probes ran at the
  // last step, whatever the trainer did; then the callbacks' end().
  void finish();

  // The pipeline's callbacks, in order (the host adds them before train()).
  void add_callback(Callback& callback) { callbacks_.push_back(&callback); }
  // Whether a callback stopped the job before the trainer's last step, and at which step (else -1).
  Index stopped_by_callback() const { return stopped_at_; }

 protected:
  // What a host implements: the core's job runner, or testing::FakeTrainerHost.
  virtual Trainer& trainer() = 0;
  virtual void run_probes(Index step) = 0;
  virtual void show_progress(Index done, Index total, double loss) = 0;
  virtual bool stop_requested() const = 0;
  // A host notes every scalar it records (record(), its probes' values) here, so the callbacks see the values of
  // the step they are called at.
  void note_metric(Index step, const std::string& metric, double value);

 private:
  bool evaluate(Index step);  // false: a callback asks to stop

  std::vector<Callback*> callbacks_;
  StepMetrics step_metrics_;
  Index metrics_step_ = -1;
  Index stopped_at_ = -1;

  std::deque<double> window_;
  Index last_evaluated_ = -1;
  Index last_done_ = 0;
  Index checked_ = -1;  // the last step check_step passed
  bool gradient_checked_ = false;  // train.check_gradient done (on the first checked step)
  void check_gradient(const Batch& batch);
};

class Trainer : public Component {
 public:
  static constexpr Kind kind_id = Kind::Trainer;
  // 2: TrainerHost checks gradients (ABI 11); 3: it runs callbacks and check_step may change the gradient (ABI 13)
  static constexpr const char* interface_id = "featurelab.trainer/3";

  virtual Index total_steps() const = 0;
  // When the host runs the probes and records train.loss (eval_schedule_schema()'s keys).
  const EvalSchedule& schedule() const { return schedule_; }
  // Whether train() calls TrainerHost::regularize(); a pipeline with [[regularizer]]s and a
  // trainer that ignores them is refused before the run.
  virtual bool applies_regularizers() const { return false; }
  virtual void train(TrainerHost& host, Rng& rng) = 0;
  // The trainer's own metrics at each evaluation, beside train.loss (train.bias_ratio, ...).
  virtual void record_evaluation(TrainerHost& /*host*/, Index /*step*/) {}
  // The fix a divergence message suggests.
  virtual std::string divergence_hint() const { return "lower optimizer.lr or check the data"; }

 protected:
  EvalSchedule schedule_;
};

}  // namespace featurelab
