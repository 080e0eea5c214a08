// Trainer `standard`: full-batch GD, minibatches (shuffled per epoch, or consecutive row blocks
// read in place), or a fresh sample every step; probes at eval points.
#pragma once

#include <featurelab/trainer.hpp>

#include <set>

namespace featurelab::std_pack {

class StandardTrainer : public Trainer {
 public:
  static constexpr const char* kDoc =
      "The training loop: full batch (batch = 0), minibatches, or fresh samples every step; evaluates the "
      "probes at step 0, every eval_every steps, at eval_at, and at the end; stops on NaN with the step.";
  static Schema schema();
  StandardTrainer(const Params& params, Context& context);

  Index total_steps() const override { return steps_; }
  bool applies_regularizers() const override { return true; }
  void train(TrainerHost& host, Rng& rng) override;

 private:
  bool due(Index step) const;  // evaluate after `step` steps?

  Index steps_;
  Index batch_;
  bool fresh_;
  bool shuffle_;
  Index eval_every_;
  std::set<Index> eval_at_;
  Index log_every_;
  Dataset buffer_;           // gathered minibatch rows or fresh samples, reused every step
  Vec grad_;
};

}  // namespace featurelab::std_pack
