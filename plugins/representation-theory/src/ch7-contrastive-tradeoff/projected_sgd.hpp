// Trainer `projected-sgd` (ch. 7 §7.2.2, App. F.2.4): online SGD on fresh batches with the
// exact projection of W onto the representation class after every step, in up to two stages in one job.
//   pretraining   `steps` steps on the data's task mixture, W projected onto Φ = {‖W‖₂ ≤ spectral, ‖W‖_F ≤
//                 frobenius} (§7.2.2: 1 and √r). The mixture of all tasks gives Prop. 7.3's representation, one task
//                 Prop. 7.4's.
//   fine-tuning   then `finetune_steps` steps on the data of task `finetune_task` only, W projected onto
//                 {‖W‖₂ ≤ spectral, ‖W − W₀‖_F ≤ finetune_radius} (F.104–F.105; the Frobenius bound off unless
//                 finetune_frobenius), W₀ = W when the stage starts: the pretrained W, or with steps = 0 the model's
//                 init (linear-representation init = "ideal-mixture" is F.104's W*). Prop. F.9: the target's private
//                 weight rises to (√(1/T) + γ/√s)².
// The featurelab engine has one training stage per job; this trainer chains the two so the fine-tuning starts from
// the representation the same job pretrained (the fine-tuning draws its batches through multitask-linear).
// Each step: sample `batch` rows, transform, augment (resample-spurious makes the pairs), one loss gradient, the
// pipeline's optimizer (gd at lr: the plain SGD step), then the projection of block W (in double; the head u, if
// any, is unconstrained). Records train.loss (window mean), train.fro2 (‖W‖_F²), train.spectral (‖W‖₂),
// train.anchor_distance (‖W − W₀‖_F, fine-tuning) and train.projection_rounds (Dykstra's, fine-tuning) at the
// probe steps; the probes also run when fine-tuning starts.
#pragma once

#include "../contract_setups.hpp"

#include "norm_projection.hpp"

#include <featurelab/trainer.hpp>


namespace featurelab::representation_theory_pack {

class ProjectedSgd : public featurelab::Trainer {
 public:
  static constexpr featurelab::Doc kDoc =
      "Online SGD with the exact projection onto {‖W‖₂ ≤ 1, ‖W‖_F ≤ √r} after each step (chapter 7, §7.2.2), optionally "
      "followed by fine-tuning on one task inside the ball ‖W − W₀‖_F ≤ γ (F.104–F.105).";
  static featurelab::Schema schema();
  static std::map<std::string, featurelab::Value> test_params() {
    return {{"steps", std::int64_t(3)}, {"batch", std::int64_t(8)}};
  }
  static featurelab::ContractData contract_data() { return multitask_contract(); }
  ProjectedSgd(const featurelab::Params& params, featurelab::Context& context);
  featurelab::Index total_steps() const override { return steps_ + finetune_steps_; }
  bool applies_regularizers() const override { return true; }
  void train(featurelab::TrainerHost& host, featurelab::Rng& rng) override;
  // train.fro2, train.spectral, and while fine-tuning train.anchor_distance and train.projection_rounds.
  void record_evaluation(featurelab::TrainerHost& host, featurelab::Index step) override;

 private:
  // One stage: steps [first, last); task < 0 draws from the data's mixture. False: the user asked to stop.
  bool stage(featurelab::TrainerHost& host, featurelab::Rng& rng, featurelab::Index first, featurelab::Index last,
             featurelab::Index task, NormProjection& projection);

  featurelab::Index steps_, batch_, finetune_steps_, finetune_task_;
  double spectral_, frobenius_, finetune_radius_, finetune_frobenius_;
  int rounds_;
  double tolerance_;

  featurelab::Dataset buffer_;
  featurelab::Vec grad_;
  featurelab::MatD W_, anchor_;
  double rounds_sum_ = 0;
  featurelab::Index rounds_count_ = 0;
  bool finetuning_ = false;
};

}  // namespace featurelab::representation_theory_pack
