// A trainer runs the training loop. The core hands it a TrainerHost: the model, loss, optimizer,
// data and augment chain of the job, and the loop's shared part, written once here and not in
// each trainer: the finiteness checks that name the source of a divergence, the evaluation
// schedule, progress and stop requests (TrainerHost::start / check_step / end_step). A trainer
// writes only what is special to it: how it draws batches, its phases, its update rule.
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

#include <featurelab/distribution.hpp>
#include <featurelab/eval_schedule.hpp>
#include <featurelab/loss.hpp>
#include <featurelab/optimizer.hpp>

#include <deque>
#include <string>

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

  // The loop's shared part (sdk/src/trainer_host.cpp). Early stopping or checkpointing go there.
  //
  // Before the first step, after the trainer's own checks and set-up: runs the probes at step 0.
  void start();
  // After the loss gradient and regularize(), before the update of 0-based step t: throws the
  // divergence error (the step, the values, the part that produced the first non-finite value,
  // the trainer's divergence_hint()) unless the loss, the penalty and the gradient are finite. With
  // train.check_gradient, the first call also checks the model's gradient of the loss on this batch
  // against finite differences, and throws naming the blocks and coordinates that disagree.
  void check_step(Index t, const Batch& batch, Scalar loss, Scalar penalty, ConstVecRef grad);
  // After the update, with `done` steps done and the step's objective: checks the objective and
  // the parameters (whatever the trainer did), reports progress, records train.loss (the
  // schedule's window mean) and the trainer's record_evaluation() and runs the probes when the
  // schedule or `how` says so, or the user asked to stop. False: return from train() now.
  bool end_step(Index done, double loss, StepEnd how = {});
  // Called by the core after train() returns: the parameters are finite and the probes ran at the
  // last step, whatever the trainer did.
  void finish();

 protected:
  // What a host implements: the core's job runner, or testing::FakeTrainerHost.
  virtual Trainer& trainer() = 0;
  virtual void run_probes(Index step) = 0;
  virtual void show_progress(Index done, Index total, double loss) = 0;
  virtual bool stop_requested() const = 0;

 private:
  void evaluate(Index step);

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
  static constexpr const char* interface_id = "featurelab.trainer/2";  // 2: TrainerHost checks gradients (ABI 11)

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
