// Distribution `hypercube-gaussian-parity` (Shi 2024 ch. 2, App. A.7.3 "Two-layer Networks on Mixture
// of Gaussians", Eq. A.288): 2^k Gaussian clusters on the vertices of a hypercube, labelled by parity:
//   x = Σ_{i=1}^k ε_i M_i + g,   y = Π_{i=1}^k ε_i,
//   ε_i iid Rademacher,  g ~ N(0, σ_r² (k/d) I_d),  M ∈ R^{d×k} with k orthonormal (random) columns.
// Every centre Σ_i ±M_i has norm √k and E‖g‖² = σ_r² k, so σ_r is the noise-to-signal norm ratio
// (σ_r = 1: noise as large as the signal). The label is a parity of the vertex, so no single direction
// correlates with y (for k >= 2); the paper reads feature learning off neurons aligning with the
// centres, and the labelling is roughly the network Σ_c α_c ReLU(⟨c, x⟩) with α_c ∝ the centre's label.
// Table A.6: (d, k, σ_r) = (100, 4, 1.0), (25, 4, 0.7), (100, 5, 1.0).
// Features: centres (2^k × d, vertex c = Σ_i s_i M_i with s_i = −1 iff bit i of c is set),
// directions (k×d, rows M_iᵀ), centre_labels (1×2^k, ±1 = Π_i s_i). Meta: cluster (the vertex c).
#pragma once

#include <featurelab/distribution.hpp>

namespace featurelab::feature_emergence_pack {

class HypercubeGaussianParity : public featurelab::Distribution {
 public:
  static constexpr featurelab::Doc kDoc =
      "x = Σ_i ε_i M_i + g, y = Π_i ε_i: 2^k Gaussian clusters N(vertex, σ_r² (k/d) I) on the hypercube spanned by "
      "k orthonormal directions, labelled by the vertex parity (Shi 2024 App. A.7.3, Eq. A.288).";
  static featurelab::Schema schema();
  static double dimension(const featurelab::Params& params);  // D, for the memory estimate at validation
  HypercubeGaussianParity(const featurelab::Params& params, featurelab::Context& context);
  featurelab::DataSpec spec() const override;
  void sample(featurelab::Index n, featurelab::Split split, featurelab::Rng& rng, featurelab::Dataset& out) override;
  featurelab::FeatureSet features() const override;

 private:
  featurelab::Index d_;
  int k_;
  double noise_std_;    // σ_r √(k/d), per coordinate
  featurelab::Mat M_;   // k×d: row i is M_iᵀ
};

}  // namespace featurelab::feature_emergence_pack
