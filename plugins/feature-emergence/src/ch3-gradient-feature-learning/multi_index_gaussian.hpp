// Distribution `multi-index-gaussian` (Shi 2024 ch. 3, App. B.5.7, after Damian et al. 2022): a
// regression problem whose target depends on x only through r directions,
//   x ~ N(0, I_d),   g*(x) = g(⟨x, u_1⟩, …, ⟨x, u_r⟩),   E g*(x)² = 1,
// with H = E ∇²g*(x) of rank r (Assumption B.66). The paper fixes no g; ours (our choice, not the
// dissertation's) is the degree-2 sum of Hermite polynomials over r orthonormal random u_i:
//   g*(x) = Σ_{i<=r} He_2(⟨x, u_i⟩)/√(2r),   He_2(z) = z² − 1,
// so E g* = 0, E g*² = Σ_i E He_2²/(2r) = 1 (E He_2(z)² = 2), E g*(x) x = 0 (odd moments vanish), and
// H = √(2/r) Σ_i u_i u_iᵀ has rank r with κ = ‖H^†‖/√r = 1/√2 (Def. B.67).
// Residualisation (Alg. 7): the training targets are y = g*(x) − ρ − β·x with ρ = (1/n) Σ g*(x) and
// β = (1/n) Σ g*(x) x, the sample's own mean and linear part, so the first gradient step sees only the
// quadratic (feature) part of g*. ρ and β are computed PER SAMPLE SET, i.e. per call of sample(): on a
// fixed training set that is Alg. 7 exactly; with fresh samples every step (Algorithm 1) each batch is
// residualised by its own statistics. residualize = "train" (default) does it on the training split only
// (the test split keeps y = g*, the L_D of Eq. B.562), "all" on both, "none" on neither.
// The regression target is Dataset::T (n×1), read by the squared loss (use loss = "squared": the
// logistic loss would read a one-column T as a probability). A class label is still required by the
// core's Dataset: the data are declared binary (classes = 2, so the two-layer models get one output) with
// y = 1 iff the target is positive, meaningful only to accuracy-type probes as the sign of the target.
// Features: directions (r×d, rows u_iᵀ). Meta: g_star (g*(x) before residualisation).
#pragma once

#include <featurelab/distribution.hpp>

#include <string>

namespace featurelab::feature_emergence_pack {

class MultiIndexGaussian : public featurelab::Distribution {
 public:
  static constexpr featurelab::Doc kDoc =
      "Regression x ~ N(0, I_d), target g*(x) = Σ_{i<=r} He_2(⟨x, u_i⟩)/√(2r) in T (E g*² = 1), optionally "
      "residualised y = g* − ρ − β·x per sample set (Shi 2024 App. B.5.7, Alg. 7; Damian et al. 2022).";
  static featurelab::Schema schema();
  static double dimension(const featurelab::Params& params);  // D, for the memory estimate at validation
  MultiIndexGaussian(const featurelab::Params& params, featurelab::Context& context);
  featurelab::DataSpec spec() const override;
  void sample(featurelab::Index n, featurelab::Split split, featurelab::Rng& rng, featurelab::Dataset& out) override;
  featurelab::FeatureSet features() const override { return {{"directions", U_}}; }

 private:
  featurelab::Index d_;
  int r_;
  std::string residualize_;
  featurelab::Mat U_;  // r×d: row i is u_iᵀ
};

}  // namespace featurelab::feature_emergence_pack
