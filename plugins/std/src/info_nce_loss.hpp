// Loss `info-nce` (Wen & Li 2021 Def. 2.2, Eq. 2.1–2.2): for each anchor x⁺_k with its positive x⁺⁺_k and the
// negatives 𝔑 = {x_s}, with Sim(u, v) = ⟨f(u), f(v)⟩ (unnormalised, footnote 2; or the cosine),
//     𝓛_k = −τ log( e^{Sim(x⁺_k, x⁺⁺_k)/τ} / Σ_{x ∈ {x⁺⁺_k} ∪ 𝔑} e^{Sim(x⁺_k, x)/τ} )
//         = −Sim(x⁺_k, x⁺⁺_k) + τ·logsumexp_x Sim(x⁺_k, x)/τ,
// averaged over the K anchors; all anchors share the batch's N negatives (the paper draws them per anchor:
// with fresh samples every step the two have the same expectation). The rows come in the SDK's view layout
// (featurelab/views.hpp) that the view augments (random-mask, identity-views) write: K anchors, K positives,
// N negatives, roles in column 0 of T.
// Gradient conventions:
//   stop-gradient (default; the paper's Eq. 2.1, Sim_f(x, x′) = ⟨f(x), StopGrad(f(x′))⟩): only the anchor branch
//     is differentiated, ∂𝓛_k/∂f(x⁺_k) = −(1 − ℓ′_p) f(x⁺⁺_k) + Σ_s ℓ′_s f(x_s) with the softmax weights ℓ′ (App.
//     A.1 prints a '+' before the first term; its own proofs use the '−'). This is NOT the gradient of 𝓛:
//     under it the loss need not decrease.
//   full: the gradient of 𝓛 through every branch (anchors, positives and negatives).
// With similarity = cosine, f is normalised first and the chain rule goes through the normalisation.
// The model is run twice under stop-gradient (the positives and negatives, then the anchors, so that the
// backward pass covers only the K anchor rows) and once under full; every buffer is reused.
#pragma once

#include <featurelab/loss.hpp>
#include <featurelab/contract.hpp>

namespace featurelab::std_pack {

class InfoNceLoss : public Loss {
 public:
  static constexpr Doc kDoc =
      "Contrastive loss −Sim(x⁺, x⁺⁺) + τ log Σ exp(Sim(x⁺, ·)/τ) over the positive and the shared negatives (Wen & Li "
      "Def. 2.2), Sim unnormalised (dot) or cosine; gradient stop-gradient (the paper's, anchor branch only) or full.";
  static Schema schema();
  // The loss's own gradient: the paper's stop-gradient is a semi-gradient, no derivative to check.
  static std::map<std::string, Value> test_params() { return {{"gradient", std::string("full")}}; }
  // Masked view pairs (three anchors, their positives, the other rows negatives) of a smooth
  // 4-dimensional representation.
  static ContractData contract_data() {
    return {{},
            {"random-mask", {{"positives", std::int64_t(3)}}},
            {"two-layer",
             {{"width", std::int64_t(8)}, {"outputs", std::int64_t(4)}, {"activation", std::string("smoothed-relu")},
              {"second_layer", std::string("trainable")}}},
            {}};
  }
  InfoNceLoss(const Params& params, Context& context);
  Scalar evaluate_with_gradient(Model& model, const Batch& batch,
                                            VecRef grad) override;
  Scalar evaluate(Model& model, const Batch& batch) override;

 private:
  // Reads the role column; returns K (and N = n − 2K); throws with the fix when the layout is wrong.
  Index layout(const Batch& batch) const;
  // Representations of the batch into F_ (rows as in the batch); under stop-gradient the anchors go last.
  void represent(Model& model, const Batch& batch, Index K);
  // Loss from F_; when with_gradient, also dF_ = d(mean loss)/dF for the rows that get gradient.
  Scalar loss_from_representations(Index K, bool with_gradient);

  double tau_;
  bool cosine_, full_;
  Mat F_, U_;       // representations, and their normalised rows (cosine)
  Vec norms_;
  Mat S_;           // K×(1+N): column 0 the positive's similarity/τ, then the negatives'
  Vec row_max_, positive_, lse_, dots_;
  Mat dU_;  // d(mean loss)/d(representation) for the rows that get gradient
};

}  // namespace featurelab::std_pack
