// Distribution `dg-theory-model` (Shi 2024 Sec. 6.4 / App. E.1): the model sees feature values z̃ ∈ R^d; with
// z := z̃·y the coordinates are independent, z_j ~ U[0,1] on the r invariant coordinates R (in- and out-of-domain),
// z_j ~ D_γ on the d − r environmental ones U in-domain and D_{−γ} out-of-domain, D_γ = U[0,1] w.p. ½ + γ, U[−1,0]
// otherwise (E z = γ, Var = 1/3 − γ²; Lemma E.3). y uniform on ±1; the sample is (z̃ = z·y, y). R is a random subset
// (the job's seed) so that no method can profit from the coordinates' order. Binary (one model output, class 1 =
// +1); the out-of-domain test set is the features ood_inputs / ood_labels, and "invariant" (1×d: 1 on R, 0 on U)
// marks R (dg_features.hpp).
#pragma once

#include <featurelab/distribution.hpp>

#include <vector>

namespace featurelab::representation_theory_pack {

class DgTheoryModel : public featurelab::Distribution {
 public:
  static constexpr featurelab::Doc kDoc =
      "Shi 2024 Sec. 6.4: r invariant U[0,1] features and d − r environmental ones with label correlation γ "
      "in-domain and −γ out-of-domain; the OOD test set is exposed as features ood_inputs / ood_labels.";
  static featurelab::Schema schema();
  static double dimension(const featurelab::Params& params);  // D, for the memory estimate at validation
  DgTheoryModel(const featurelab::Params& params, featurelab::Context& context);

  featurelab::DataSpec spec() const override;
  void sample(featurelab::Index n, featurelab::Split split, featurelab::Rng& rng, featurelab::Dataset& out) override;
  featurelab::FeatureSet features() const override;

  // Draws n samples with environmental correlation gamma (γ in-domain, −γ out-of-domain).
  void draw(featurelab::Index n, double gamma, featurelab::Rng& rng, featurelab::Dataset& out) const;

 private:
  featurelab::Index r_, d_;
  double gamma_;
  std::vector<bool> invariant_;  // coordinate j is in R
  featurelab::Dataset ood_;
};

}  // namespace featurelab::representation_theory_pack
