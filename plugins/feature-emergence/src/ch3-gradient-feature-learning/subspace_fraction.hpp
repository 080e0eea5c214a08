// Probe `subspace-fraction` (Shi 2024 ch. 3, App. B.5.7, after Damian et al. 2022): how much of the
// first layer lies in the span S = span(u_1, …, u_r) of a distribution's directions (the multi-index
// model's index space). Algorithm 7's one step on W with λ1 = 1/η1 sets W^(1) = −η1 ∇_W L, and with
// residualised labels (no constant, no linear part) that gradient is, to leading order, H w_i^(0) with
// H = E ∇²g* of rank r: the step maps every neuron into S. Measured on block W (N×d):
//   fraction      ‖W P‖²_F / ‖W‖²_F, P = QQᵀ the projector onto S (Q: d×r, the feature's rows
//                 orthonormalised): the share of the first layer's energy in S; a random isotropic W
//                 has r/d in expectation (reported as `chance`);
//   neuron_median the median over neurons of ‖P w_i‖²/‖w_i‖² (neurons with w_i = 0 skipped);
//   angle_cos_min the smallest cosine of the principal angles between S and the span of W's top r
//                 right singular vectors (eigenvectors of WᵀW, d×d): 1 when W's dominant r-dimensional
//                 subspace is S, whatever the spread of the neurons inside it.
#pragma once

#include <featurelab/probe.hpp>

#include <string>
#include <vector>

namespace featurelab::feature_emergence_pack {

class SubspaceFraction : public featurelab::Probe {
 public:
  static constexpr featurelab::Doc kDoc =
      "Share of the first layer W in the span S of a feature's rows (the multi-index space of Shi 2024 App. B.5.7): "
      "‖WP_S‖²/‖W‖², the median per-neuron share, and the least principal-angle cosine between S and W's top singular subspace.";
  static featurelab::Schema schema();
  static std::vector<std::string> metrics() { return {"fraction", "neuron_median", "angle_cos_min", "chance"}; }
  SubspaceFraction(const featurelab::Params& params, featurelab::Context& context);
  void measure(const featurelab::ProbeInput& in, featurelab::Measurements& out) override;

 private:
  std::string feature_;
};

}  // namespace featurelab::feature_emergence_pack
