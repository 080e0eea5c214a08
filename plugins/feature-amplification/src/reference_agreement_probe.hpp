// Probe `reference-agreement` (Frei et al. 2022, §3 after Thm. 3.1): P(sgn f = sgn(|⟨μ1,x⟩| − |⟨μ2,x⟩|)) on the
// test set.
#pragma once

#include "xor_geometry.hpp"

#include <featurelab/probe.hpp>

#include <string>
#include <vector>

namespace featurelab::feature_amplification_pack {

class ReferenceAgreementProbe : public featurelab::Probe {
 public:
  static constexpr featurelab::Doc kDoc =
      "Fraction of test points where sgn f agrees with the reference sgn(|<μ1,x>| − |<μ2,x>|) (§3).";
  static featurelab::Schema schema() { return featurelab::Schema{}; }
  static featurelab::ContractData contract_data() { return xor_contract(); }
  static std::vector<std::string> metrics() {
    return {"agreement"};
  }
  ReferenceAgreementProbe(const featurelab::Params&, featurelab::Context&) {}
  void measure(const featurelab::ProbeInput& in, featurelab::Measurements& out) override;
};

}  // namespace featurelab::feature_amplification_pack
