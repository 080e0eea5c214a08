// Regularizer `contrastive-views`: a contrastive loss on a model hook point's features of two masked views of every
// row of the step's batch, the term that Shi's dissertation (2024, ch. 7, Eq. 7.9) adds to the fine-tuning loss
// ("contrastive regularization"), and, on its own, a self-supervised pretraining objective (trainer
// `pretrain-finetune`).
//   views      x̃ = S₁(D x / q) and x̃⁺ = S₂((I − D) x / (1 − q)): D = diag(Bernoulli(q)) fresh per row (the
//              complementary masks of std's random-mask; keep = 1: no mask, both views the whole image), S₁, S₂
//              independent translations of the C×H×W image by up to `shift` pixels in each direction, zero-filled
//              (the cropping of SimCLR's views, small). The draws of step t come from the component's stream forked
//              by t, so the penalty and its gradient at one step see the same views.
//   loss       a = φ(x̃), p = φ(x̃⁺) (rows of the hook's n×k features), cosine similarities S_ij = âᵢ·p̂ⱼ / τ (n×n),
//              the other rows' views the negatives (SimCLR's in-batch negatives, symmetric as CLIP's):
//                  L = (1/2n) Σᵢ [lse_j S_ij − S_ii] + (1/2n) Σⱼ [lse_i S_ij − S_jj],   penalty λ·L.
//   gradient   dS = (softmax_rows(S) − I + softmax_cols(S) − I)/2n; dâ = dS p̂/τ, dp̂ = dSᵀ â/τ; through the
//              normalisation da = (dâ − â(â·dâ))/‖a‖; then Model::hook_backward on the 2n stacked views.
// Active for 0-based steps from ≤ t < until (until = 0: no end): pretraining and fine-tuning are two windows.
#pragma once

#include <featurelab/contract.hpp>
#include <featurelab/regularizer.hpp>

#include <map>
#include <string>

namespace featurelab::std_pack {

class ContrastiveViewsRegularizer : public Regularizer {
 public:
  static constexpr Doc kDoc =
      "λ·InfoNCE (cosine, temperature τ, in-batch negatives, symmetric) on a hook point's features of two "
      "complementary masked views of each batch row: Eq. 7.9's contrastive regularization (Shi 2024 ch. 7), or a "
      "pretraining objective; active for steps in [from, until).";
  static Schema schema();
  // The hook point of std two-layer, the contract test's model: smooth in the parameters.
  static std::map<std::string, Value> test_params() { return {{"hook", std::string("hidden.post")}}; }
  ContrastiveViewsRegularizer(const Params& params, Context& context);
  void bind(Model& model) override;
  Scalar add_penalty(Model& model, const Batch& batch, Index step, VecRef grad) override;
  Scalar penalty(Model& model, const Batch& batch, Index step) override;

 private:
  bool active(Index step) const { return lambda_ > 0 && step >= from_ && (until_ == 0 || step < until_); }
  // The two views of the batch's rows into views_ (2n×D: anchors, then positives), from step's masks.
  void draw_views(ConstMatRef X, Index step);
  // Features of the views, their normalised rows and S; returns L (without λ).
  double similarities(Model& model);

  // Translates each row of V (an image of shape_) by its own random (dy, dx) ∈ [−shift_, shift_]², zero-filled.
  void translate(MatRef V, Rng& rng);

  double lambda_, tau_, keep_;
  Index shift_;
  Index channels_ = 1, height_ = 0, width_ = 0;
  std::string hook_;
  Index from_, until_;
  Rng stream_;
  Vec shifted_;
  Mat views_, mask_, features_, unit_, S_, dS_, dunit_, dfeatures_;
  Vec norms_;
};

}  // namespace featurelab::std_pack
