// Probe `feature-averaging-distance` (Li et al. 2024, Thm 4.5-2, Lemma B.24): λ̂ = mean matched ⟨w, μ_j⟩, the
// distance of each neuron to the averaged direction λ̂ Σ_{J_s} μ_j / d, max |b|.
#pragma once

#include "cluster_geometry.hpp"

#include <featurelab/probe.hpp>

#include <string>
#include <vector>

namespace featurelab::feature_averaging_pack {

class FeatureAveragingDistanceProbe : public featurelab::Probe {
 public:
  static constexpr featurelab::Doc kDoc =
      "λ̂ (mean ⟨w_r, μ_j⟩ over neurons and matched centres), √d·max_r ‖w_r − λ̂ Σ_{matched} μ_j/d‖ and its "
      "relative form, the largest unmatched ⟨w_r, μ_j⟩, and max |b| (Li et al. Thm 4.5-2, Lemma B.24).";
  static featurelab::Schema schema();
  static featurelab::ContractData contract_data() { return clusters_contract(); }
  static std::vector<std::string> metrics() {
    return {"lambda", "distance", "relative_distance", "unmatched_max", "bias_max"};
  }
  FeatureAveragingDistanceProbe(const featurelab::Params& params, featurelab::Context& context);
  void measure(const featurelab::ProbeInput& in, featurelab::Measurements& out) override;
};

}  // namespace featurelab::feature_averaging_pack
