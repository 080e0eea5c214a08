// Probe `subnetwork` (Frei et al. 2022, Lemmas 4.6 and 4.9): the subnetwork f^J of the candidate
// neurons J = J_{±μ1} ∪ J_{±μ2} (Lemma 4.2, fixed at t = 0) classifies every clean training point
// right and every noisy one wrong with a margin (Lemma 4.9), and decides the whole network's sign
// (Lemma 4.6: the rest, J^c, is too small to overturn it).
#pragma once

#include "xor_geometry.hpp"

#include <featurelab/probe.hpp>

#include <string>
#include <vector>

namespace featurelab::feature_amplification_pack {

class SubnetworkProbe : public featurelab::Probe {
 public:
  static constexpr featurelab::Doc kDoc =
      "f^J(x) = Σ_{j∈J} a_j φ(<w_j, x>) over the candidate neurons J of Lemma 4.2 (threshold 1/(3 C0 √d), fixed at "
      "t = 0): min y f^J over clean training points and max over noisy ones (Lemma 4.9: ≥ 1/C3 and ≤ −1/C3), the "
      "share of training points where sgn f^J = sgn f (Lemma 4.6), and |J|/m.";
  static featurelab::Schema schema();
  static featurelab::ContractData contract_data() { return xor_contract(); }
  static std::vector<std::string> metrics() { return {"clean_min", "noisy_max", "sign_agreement", "size_fraction"}; }
  SubnetworkProbe(const featurelab::Params& params, featurelab::Context& context);
  void measure(const featurelab::ProbeInput& in, featurelab::Measurements& out) override;

 private:
  double c0_;
  featurelab::Vec in_J_;  // m: 1 for a neuron of J, 0 otherwise; empty until the first measurement
};

}  // namespace featurelab::feature_amplification_pack
