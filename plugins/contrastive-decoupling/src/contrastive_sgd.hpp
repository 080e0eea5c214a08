// Trainer `contrastive-sgd` (Wen & Li §2.2, App. A.1, footnote 4): online SGD from the population with
// the paper's manual bias schedule.
//
// Every step draws `batch` = K + N fresh samples (the augment turns the first K into anchor/positive
// views, the last N stay raw negatives; the loss reads that layout), takes the loss's gradient (for
// info-nce: the paper's stop-gradient semi-gradient), adds the regulariser's λW to W's gradient (the paper's
// λ Σ_i ‖w_i‖² is on the weights only and differentiated as λw, App. A.1) and hands it to the pipeline's
// optimizer: std's gd at rate η makes the paper's update W ← (1 − ηλ) W − η ∇_W.
// Biases (block b of the model), one of:
//   schedule  Stage I: b = 0 until T1, the first step with min_i ‖w_i‖²/‖w_i⁽⁰⁾‖² ≥ growth (Thm C.1's
//             "all neurons have grown"); at T1, b_i = bias_start·‖w_i‖ (√(2 ln d/d) = 0.465 at d = 32);
//             after it b_i ← min(b_i·max(1 + bias_floor, ‖w_i⁺‖/‖w_i‖), bias_cap·‖w_i⁺‖) — our
//             reading of the schedule (the paper's floor η/d is too fast at d = 32; its cap polylog(d)/√d
//             is relative to ‖w_i‖, Thm D.5(b)).
//   zero      b = 0 throughout (the network is linear).
//   trained   b trained by the same (semi-)gradient (footnote 4's experiment; the model must declare b
//             trainable: symmetric-relu-layer train_bias = true).
// Records train.loss (the mean over the last loss_window steps), train.t1 (T1, when it happens) and
// train.bias_ratio (mean b_i/‖w_i‖) at the probe steps; the probes also run at T1.
#pragma once

#include "contract_setups.hpp"

#include <featurelab/trainer.hpp>

#include <string>

namespace featurelab::contrastive_decoupling_pack {

class ContrastiveSgd : public featurelab::Trainer {
 public:
  static constexpr featurelab::Doc kDoc =
      "Online SGD on fresh batches (K positives + N negatives per step) with the paper's bias schedule (zero "
      "until all neurons have grown, then a fraction of ‖w_i‖ growing with it), zero or trained biases.";
  static featurelab::Schema schema();
  static std::map<std::string, featurelab::Value> test_params() {
    return {{"steps", std::int64_t(3)}, {"batch", std::int64_t(8)}};
  }
  static featurelab::ContractData contract_data() { return contrastive_training_contract(); }
  ContrastiveSgd(const featurelab::Params& params, featurelab::Context& context);
  featurelab::Index total_steps() const override { return steps_; }
  void train(featurelab::TrainerHost& host, featurelab::Rng& rng) override;
  // train.bias_ratio, the mean b_i/‖w_i‖, beside train.loss.
  void record_evaluation(featurelab::TrainerHost& host, featurelab::Index step) override;

 private:
  // The schedule's update after a weight step (norms_ holds ‖w_i‖ before it); true at T1.
  bool schedule_biases(featurelab::Model& model, featurelab::Index step, featurelab::TrainerHost& host);

  featurelab::Index steps_, batch_;
  double weight_decay_;
  std::string bias_;
  double growth_, bias_start_, bias_floor_, bias_cap_;

  featurelab::Dataset buffer_;
  featurelab::Vec grad_;
  featurelab::VecD init_norms2_, norms_, next_norms_;
  featurelab::Index t1_ = -1;
};

}  // namespace featurelab::contrastive_decoupling_pack
