// Probe `neuron-alignment` (Frei et al. 2022, Condition 4.7): the fraction of the candidate neurons J that satisfy
// the neuron alignment condition at t.
#pragma once

#include "xor_geometry.hpp"

#include <featurelab/probe.hpp>

#include <string>
#include <vector>

namespace featurelab::feature_amplification_pack {

class NeuronAlignmentProbe : public featurelab::Probe {
 public:
  static constexpr featurelab::Doc kDoc =
      "Fraction of the (sign-based, t = 0) candidate neurons satisfying the neuron alignment condition 4.7 at t: "
      "active on every point of their cluster, inactive on the opposite one.";
  static featurelab::Schema schema() { return featurelab::Schema{}; }
  static featurelab::ContractData contract_data() { return xor_contract(); }
  static std::vector<std::string> metrics() {
    return {"fraction"};
  }
  NeuronAlignmentProbe(const featurelab::Params&, featurelab::Context&) {}
  void measure(const featurelab::ProbeInput& in, featurelab::Measurements& out) override;

 private:
  CandidateSets sets_;
  bool fixed_ = false;
};

}  // namespace featurelab::feature_amplification_pack
