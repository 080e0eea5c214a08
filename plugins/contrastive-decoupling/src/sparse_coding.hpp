// Distribution `sparse-coding` (Wen & Li Def. 2.1, §2.1, footnote 1; Def. 3.1 for the downstream labels):
//     x = M z + ξ ∈ R^{d1},   z_j ∈ {−1, 0, +1} i.i.d. with Pr(z_j = ±1) = p/2,   ξ ~ N(0, σ_ξ² I_{d1}),
//     p = C_z ln ln d / d,   σ_ξ² = noise·√(ln d)/d,
// with M ∈ R^{d1×d} column-orthonormal and delocalised (‖M_j‖_∞ = Õ(1/√d1)): a random orthonormal basis
// (QR of a Gaussian matrix), or d columns of the normalised Sylvester–Hadamard matrix (entries ±1/√d1). The
// identity dictionary (M_j = e_j) is offered only as the ablation that breaks the paper's assumption: a
// coordinate mask then deletes a whole atom from one view.
// Every sample carries its sparse code (meta z0 … z{d−1}), the number of active atoms (meta active) and the
// downstream target ⟨w*, z⟩ (meta target; w*_j = ±U[1, 2], so the target is 0 only when z = 0); y = 1 iff
// the target is positive (z = 0 gives y = 0: probes that classify exclude it). The noise is not stored:
// ξ = x − M z from z and the dictionary.
// Features: dictionary (d×d1, row j = M_jᵀ), completion (the orthonormal completion M^⊥, (d1−d)×d1: the dense
// "spurious" features), w_star (1×d), and constants (1×2: [p, σ_ξ²]).
#pragma once

#include <featurelab/distribution.hpp>

#include <string>
#include <vector>

namespace featurelab::contrastive_decoupling_pack {

class SparseCoding : public featurelab::Distribution {
 public:
  static constexpr featurelab::Doc kDoc =
      "x = Mz + ξ: sparse ternary code z (Pr(z_j = ±1) = C_z ln ln d/(2d)) on a delocalised orthonormal dictionary M "
      "(d1×d; random orthonormal or Hadamard, identity only as an ablation) plus dense noise N(0, √(ln d)/d·I) "
      "(Wen & Li Def. 2.1); meta z0..z{d-1}, target = ⟨w*, z⟩.";
  static featurelab::Schema schema();
  static double dimension(const featurelab::Params& params);  // D, for the memory estimate at validation
  SparseCoding(const featurelab::Params& params, featurelab::Context& context);
  featurelab::DataSpec spec() const override;
  void sample(featurelab::Index n, featurelab::Split split, featurelab::Rng& rng, featurelab::Dataset& out) override;
  featurelab::FeatureSet features() const override;

  double p() const { return p_; }
  double sigma_xi2() const { return sigma_xi2_; }

 private:
  featurelab::Index d_, d1_;
  double p_, sigma_xi2_;
  featurelab::Mat M_;        // d×d1: row j = M_jᵀ
  featurelab::Mat Mperp_;    // (d1−d)×d1
  featurelab::Mat w_star_;   // 1×d
  featurelab::Mat Z_;        // n×d codes of the last sample() (reused)
  std::vector<std::string> z_names_;
};

}  // namespace featurelab::contrastive_decoupling_pack
