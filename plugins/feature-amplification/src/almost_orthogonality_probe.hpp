// Probe `almost-orthogonality` (Frei et al. 2022, Condition 4.8): |⟨w_j, other⟩| ≤ factor·α|a_j| for j ∈ J.
#pragma once

#include "xor_geometry.hpp"

#include <featurelab/probe.hpp>

#include <string>
#include <vector>

namespace featurelab::feature_amplification_pack {

class AlmostOrthogonalityProbe : public featurelab::Probe {
 public:
  static constexpr featurelab::Doc kDoc =
      "Condition 4.8 at t: the fraction of candidate neurons with |<w_j, other mean>| <= factor·α|a_j|, and the "
      "largest |<w_j, other>|/(α|a_j|).";
  static featurelab::Schema schema();
  static featurelab::ContractData contract_data() { return xor_contract(); }
  static std::vector<std::string> metrics() {
    return {"fraction", "max_ratio"};
  }
  AlmostOrthogonalityProbe(const featurelab::Params& params, featurelab::Context& context);
  void measure(const featurelab::ProbeInput& in, featurelab::Measurements& out) override;

 private:
  double lr_, factor_;
  CandidateSets sets_;
  bool fixed_ = false;
};

}  // namespace featurelab::feature_amplification_pack
