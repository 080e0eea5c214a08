// Probe `gradient-features` (Shi 2024 ch. 3: Def. 3.5, Def. 3.7, Eq. 3.14 / Def. B.4, Lemma 3.13):
// which of the distribution's directions the neurons' simplified gradients point to.
//
// For every neuron (w_i, b_i) of the model (blocks W and b), the simplified gradient vector
//     G(w_i, b_i) = Ê[y x 1[w_iᵀx > b_i]]          (y = ±1; bias_sign = "plus" reads a ch. 2 model,
//                                                    ReLU(wᵀx + b), as the threshold −b)
// over the probe's data (split; the first `samples` rows), computed for all neurons at once as
//     Gᵀ = Xᵀ (y ⊙ 1[XWᵀ > b]) / n        — one GEMM for the gates, one for G.
// It is what the first step moves a neuron by: at the symmetric init ∇_{w_i} L = ℓ′(0) a_i G(w_i, b_i).
// Then for each direction D_j (rows of the feature `feature`, normalised), with s = sign(b_i) (of the
// ch. 3 threshold):
//   cone C_{D,γ}: |⟨G, D⟩|/‖G‖ > 1 − γ (Eq. 3.5), and ‖G‖ ≥ B_G;
//   p̂(D_j, s) = fraction of ALL neurons with G in C_{D_j,γ}, ‖G‖ ≥ B_G, sign(b) = s — the empirical
//     probability of Def. 3.7 over the init distribution (the 4m mirrored copies only repeat draws);
//   nice(D_j, s) = #{i ≤ half the width: sign(b_i) = s, sign(a_i)⟨G_i, D_j⟩ > (1 − γ)‖G_i‖, ‖G_i‖ ≥ B_G}
//     — Def. B.4, the set the proof of Lemma B.5 uses: w_i^(1) = −η1 ℓ′(0) a_i G_i points along D_j
//     (ℓ′(0) < 0) with ‖w_i^(1)‖ ≥ |η1 ℓ′(0) a_i| B_G. (Eq. 3.14 in the main text writes ⟨∇_i, D⟩ for the
//     same set, which has the opposite sign since ∇_i = −w_i^(1)/η1; B.4 is the one the proof uses.)
//     Over i ≤ 2m of the 4m layout, as the theory counts (neurons 2m+1..4m are the same with −a);
//     Lemma 3.13 predicts nice ≥ m p/4. Meaningful at step 0, where a = a^(0).
// B_G = norm_threshold (absolute), or norm_threshold × median_i ‖G_i‖ when norm_mode = "median".
// Metrics: in_cone (fraction of neurons in some cone with ‖G‖ ≥ B_G), p.J.pos / p.J.neg, p_min
// (min_j max_s p̂), nice.J.pos / nice.J.neg, cos.J (max_i |cos(G_i, D_j)|), norm_median, threshold (B_G);
// table "neurons" (table = true): per neuron ‖G_i‖ and cos(G_i, D_j) (signed), for plots and checks.
#pragma once

#include <featurelab/probe.hpp>

#include <string>
#include <vector>

namespace featurelab::feature_emergence_pack {

class GradientFeatures : public featurelab::Probe {
 public:
  static constexpr featurelab::Doc kDoc =
      "Simplified gradients G(w_i, b_i) = Ê[y x 1[w_iᵀx > b_i]] of every neuron (one batched product) against the "
      "distribution's directions: cone fractions p̂(D_j, s, γ, B_G), nice-neuron counts (Def. B.4), max |cos| (Shi 2024 ch. 3).";
  static featurelab::Schema schema();
  static std::vector<std::string> metrics() {
    return {"in_cone", "p.*.pos", "p.*.neg", "p_min", "nice.*.pos", "nice.*.neg", "cos.*", "norm_median", "threshold"};
  }
  GradientFeatures(const featurelab::Params& params, featurelab::Context& context);
  void measure(const featurelab::ProbeInput& in, featurelab::Measurements& out) override;

 private:
  std::string feature_;
  bool plus_;  // ch. 2 bias convention: ReLU(wᵀx + b)
  double gamma_, norm_threshold_;
  bool median_, test_, table_;
  featurelab::Index samples_;
  featurelab::Mat gates_, G_, C_;  // n×N gates (then y ⊙ gates), N×d gradients, N×r cosines
};

}  // namespace featurelab::feature_emergence_pack
