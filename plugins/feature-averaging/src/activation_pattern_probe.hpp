// Probe `activation-pattern` (Li et al. 2024, Lemma 5.5): the fraction of (sample, neuron) pairs of the same / other
// side active.
#pragma once

#include "cluster_geometry.hpp"

#include <featurelab/probe.hpp>

#include <string>
#include <vector>

namespace featurelab::feature_averaging_pack {

class ActivationPatternProbe : public featurelab::Probe {
 public:
  static constexpr featurelab::Doc kDoc =
      "Fraction of (training sample, neuron) pairs with ⟨w_r, x⟩ + b_r ≥ 0: own (the neuron serves the sample's "
      "side or cluster) and opp (Li et al. Lemma 5.5).";
  static featurelab::Schema schema();
  static featurelab::ContractData contract_data() { return clusters_contract(); }
  static std::vector<std::string> metrics() { return {"own", "opp"}; }
  ActivationPatternProbe(const featurelab::Params& params, featurelab::Context& context);
  void measure(const featurelab::ProbeInput& in, featurelab::Measurements& out) override;
};

}  // namespace featurelab::feature_averaging_pack
