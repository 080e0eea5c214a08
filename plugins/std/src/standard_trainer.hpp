// Trainer `standard`: full-batch GD, minibatches (shuffled per epoch, or consecutive row blocks
// read in place), or a fresh sample every step; the host's schedule runs the probes.
#pragma once

#include <featurelab/batch_sampler.hpp>
#include <featurelab/trainer.hpp>

namespace featurelab::std_pack {

class StandardTrainer : public Trainer {
 public:
  static constexpr Doc kDoc =
      "The training loop: full batch (batch = 0), minibatches, or fresh samples every step; evaluates the "
      "probes at step 0, every eval_every steps, at eval_at, and at the end; stops on NaN with the step.";
  static Schema schema();
  StandardTrainer(const Params& params, Context& context);

  Index total_steps() const override { return steps_; }
  bool applies_regularizers() const override { return true; }
  void train(TrainerHost& host, Rng& rng) override;

 private:
  Index steps_;
  Index batch_;
  bool fresh_;
  bool shuffle_;
  BatchSampler batches_;
  Vec grad_;
};

}  // namespace featurelab::std_pack
