// A trainer runs the training loop. The core hands it a TrainerHost: the model, loss, optimizer,
// data and augment chain of the job, plus the calls that record metrics and run probes.
#pragma once

#include <featurelab/distribution.hpp>
#include <featurelab/loss.hpp>
#include <featurelab/optimizer.hpp>

#include <string>

namespace featurelab {

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
  // Runs the probes due at this step and records their results.
  virtual void evaluate(Index step) = 0;
  // Records one of the trainer's own metrics ("train.loss").
  virtual void record(Index step, const std::string& metric, double value) = 0;
  // Progress for the terminal and the log; cheap, call every step.
  virtual void progress(Index step, Index total, double loss) = 0;
  // True once the user asked to stop (Ctrl-C): finish the step and return.
  virtual bool stop_requested() const = 0;
};

class Trainer : public Component {
 public:
  static constexpr Kind kind_id = Kind::Trainer;
  static constexpr const char* interface_id = "featurelab.trainer/1";

  virtual Index total_steps() const = 0;
  // Whether train() calls TrainerHost::regularize(); a pipeline with [[regularizer]]s and a
  // trainer that ignores them is refused before the run.
  virtual bool applies_regularizers() const { return false; }
  virtual void train(TrainerHost& host, Rng& rng) = 0;
};

}  // namespace featurelab
