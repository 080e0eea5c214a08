// Probe `margins` (Frei et al. 2022, Lemma 4.9, eqs. (20), (45)): min clean and max noisy training margin, f at
// ±μ1, ±μ2.
#pragma once

#include "xor_geometry.hpp"

#include <featurelab/probe.hpp>

#include <string>
#include <vector>

namespace featurelab::feature_amplification_pack {

class MarginsProbe : public featurelab::Probe {
 public:
  static constexpr featurelab::Doc kDoc =
      "min y f over clean training points, max y f over noisy ones, and f at the cluster centres ±μ1, ±μ2 "
      "(Lemma 4.9).";
  static featurelab::Schema schema() { return featurelab::Schema{}; }
  static featurelab::ContractData contract_data() { return xor_contract(); }
  static std::vector<std::string> metrics() {
    return {"clean_min", "noisy_max", "f_plus_mu1", "f_minus_mu1", "f_plus_mu2", "f_minus_mu2"};
  }
  MarginsProbe(const featurelab::Params&, featurelab::Context&) {}
  void measure(const featurelab::ProbeInput& in, featurelab::Measurements& out) override;
};

}  // namespace featurelab::feature_amplification_pack
