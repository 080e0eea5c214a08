// Distribution `linear-separable` (Shi 2024 ch. 3, App. B.5.1, D_linear). The paper states only
// assumptions, no generator: equiprobable labels; a unit w* with y⟨w*, x⟩ > 0 on every sample, with
// margin β = min y⟨w*, x⟩ > 0 and signal ρ = E[y⟨w*, x⟩]; and E[y P_⊥ x] = 0 (the part of x orthogonal to
// w* is independent of the label). The generator here is OUR choice, not the dissertation's:
//   x = y (β + |u|) w* + P_⊥ z,   u ~ N(0, 1),   z ~ N(0, noise² I_d),   P_⊥ = I − w* w*ᵀ,
// with y = ±1 equiprobable and w* a random unit vector. Every assumption holds by construction:
// y⟨w*, x⟩ = β + |u| >= β (the margin is exactly β, approached but not attained), P_⊥ x = P_⊥ z is
// independent of y so E[y P_⊥ x] = 0, and ρ = β + E|u| = β + √(2/π). The paper also assumes bounded
// moments (Assumption 3.1: ‖x‖ <= B_x); Gaussian tails make ‖x‖ unbounded, though E‖x‖² = (β² + 2β√(2/π)
// + 1) + noise² (d − 1) is finite, which is what the bounds use in practice.
// Features: direction (1×d, w*).
#pragma once

#include <featurelab/distribution.hpp>

namespace featurelab::feature_emergence_pack {

class LinearSeparable : public featurelab::Distribution {
 public:
  static constexpr featurelab::Doc kDoc =
      "Linearly separable data x = y(β + |u|) w* + P_⊥ z with margin β and label-independent orthogonal noise: "
      "our generator for the assumptions of D_linear (Shi 2024 App. B.5.1); exposes w* as \"direction\".";
  static featurelab::Schema schema();
  static double dimension(const featurelab::Params& params);  // D, for the memory estimate at validation
  LinearSeparable(const featurelab::Params& params, featurelab::Context& context);
  featurelab::DataSpec spec() const override;
  void sample(featurelab::Index n, featurelab::Split split, featurelab::Rng& rng, featurelab::Dataset& out) override;
  featurelab::FeatureSet features() const override { return {{"direction", w_}}; }

 private:
  featurelab::Index d_;
  double margin_, noise_;
  bool balanced_;
  featurelab::Mat w_;  // 1×d, unit
};

}  // namespace featurelab::feature_emergence_pack
