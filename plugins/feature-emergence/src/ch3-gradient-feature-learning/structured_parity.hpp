// Distribution `structured-parity` (Shi 2024 ch. 3, Sec. 3.4.2; App. B.5.4, Eq. B.396–B.397): the
// parity problem of the gradient-feature-learning chapter, over a hidden vector φ ∈ {−1, 0, +1}^d:
//   x = Mφ,   y = sign( Σ_{j=1}^r Π_{l∈A_j} φ_l )
// with M an orthonormal d×d dictionary (d = D), A = A_1 ∪ … ∪ A_r the rk relevant patterns in r
// blocks of k, and φ_A drawn from the mixture (B.397)
//   X = (1 − 2 r p_A)·X_U + Σ_j p_A (X_{j,+} + X_{j,−})
//   X_U      φ_A uniform on {±1}^{rk}
//   X_{j,±}  φ_{A_j} = ±(1, …, 1) and the other blocks of A all 0
// while, under every component, φ_l for l ∉ A is iid +1 or −1 with probability p_o each, else 0.
// Why r and k odd (§3.4.2, Assumption 3.19): under X_U the sum of r odd ±1 block parities is never 0, and under
// X_{j,±} only block j is non-zero and its parity is ±1 = the sign of the block only for odd k, so
// the label is never sign(0). The law is symmetric, P(φ) = P(−φ) and y(−φ) = −y(φ), so labels are
// balanced. Remark B.45 also states E[yx] = 0, which holds only for p_A = 0: yx is even under the
// symmetry, not odd; X_U contributes 0 (for k >= 2 a block's parity is independent of each of its
// coordinates) but under X_{j,±} yx = Σ_{l∈A_j} M_l, so E[yx] = 2 p_A Σ_{l∈A} M_l = 2 p_A √k Σ_j D_j:
// the structured part puts a linear signal along the block directions D_j = Σ_{l∈A_j} M_l/√k
// (Eq. B.399), the gradient features the network must find, while the label itself stays a parity.
// A is the first rk coordinates as in the paper's WLOG (relevant = "first"), or a random rk-subset
// cut into blocks in drawn order (relevant = "random"); under a random orthonormal M the two have
// the same law.
// Presets fix the parameters of the paper's special cases: a preset overrides dictionary, r, p_a and
// p_o, and setting r, p_a or p_o to a value other than both its default and the preset's is an error
// (a key left at its default cannot be told from one written out, so that one is overridden):
//   daniely-malach  Daniely & Malach 2020 (Prop. 3.23): M = I, r = 1, p_A = 1/4, p_o = 1/2 (the
//                   proposition also takes k = d/16; k stays yours)
//   uniform         App. B.5.5, Assumption B.53 (Barak et al. 2022): M = I, r = 1, p_A = 0, p_o = 1/2,
//                   so φ is uniform on {±1}^d (B.53's d >= 2k² is a condition of the guarantee, not
//                   enforced). B.5.5 follows Barak et al. in taking k even, so this preset alone
//                   admits an even k; the label is then y = Π_{l∈A} φ_l (which is what the sign rule
//                   gives for r = 1 and any k), and E[yx] = 0 indeed.
// Features: directions (r×d, D_j, unit), dictionary (d×d, rows M_lᵀ), relevant (1×d indicator of A),
// blocks (r×d, row j the indicator of A_j), patterns (rk×d, rows M_lᵀ for l ∈ A: the span the parity lives in).
// Meta: component (0 = X_U, +j = X_{j,+}, −j = X_{j,−}).
#pragma once

#include <featurelab/distribution.hpp>

#include <string>
#include <vector>

namespace featurelab::feature_emergence_pack {

class StructuredParity : public featurelab::Distribution {
 public:
  static constexpr featurelab::Doc kDoc =
      "x = Mφ, y = sign(Σ_j Π_{l∈A_j} φ_l) over r odd blocks of k relevant patterns; φ_A from the mixture "
      "(1 − 2r p_A)·uniform + Σ_j p_A (block j all +1 / all −1), background ±1 w.p. p_o each (Shi 2024 §3.4.2, "
      "B.5.4); presets daniely-malach and uniform (B.5.5).";
  static featurelab::Schema schema();
  static double dimension(const featurelab::Params& params);  // D, for the memory estimate at validation
  StructuredParity(const featurelab::Params& params, featurelab::Context& context);
  featurelab::DataSpec spec() const override;
  void sample(featurelab::Index n, featurelab::Split split, featurelab::Rng& rng, featurelab::Dataset& out) override;
  featurelab::FeatureSet features() const override;

 private:
  featurelab::Index d_;
  int r_, k_;
  double p_a_, p_o_;
  bool identity_;
  featurelab::Mat M_;                   // d×d: row l is M_lᵀ
  std::vector<featurelab::Index> a_;    // the rk indices of A, block j = a_[jk .. jk + k)
  std::vector<featurelab::Index> off_;  // the d − rk indices outside A
};

}  // namespace featurelab::feature_emergence_pack
