// Probe `neuron-feature-correlation` (Frei et al. 2022, Lemmas 4.2, 4.10): corr_j = |⟨ŵ_j, own mean⟩| (positive
// neurons: μ1, negative: μ2) and the cross correlation with the other mean; min/p10/median/max.
#pragma once

#include "xor_geometry.hpp"

#include <featurelab/probe.hpp>

#include <string>
#include <vector>

namespace featurelab::feature_amplification_pack {

class NeuronFeatureCorrelationProbe : public featurelab::Probe {
 public:
  static constexpr featurelab::Doc kDoc =
      "Normalised correlation of each neuron with its own mean (μ1 for a_j > 0, μ2 for a_j < 0) and with the other: "
      "own_min/p10/median/max, cross_median/max (Frei et al. Lemmas 4.2, 4.10).";
  static featurelab::Schema schema() { return featurelab::Schema{}; }
  static featurelab::ContractData contract_data() { return xor_contract(); }
  static std::vector<std::string> metrics() {
    return {"own_min", "own_p10", "own_median", "own_max", "cross_median", "cross_max"};
  }
  NeuronFeatureCorrelationProbe(const featurelab::Params&, featurelab::Context&) {}
  void measure(const featurelab::ProbeInput& in, featurelab::Measurements& out) override;
};

}  // namespace featurelab::feature_amplification_pack
