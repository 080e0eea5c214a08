// Probe `loss-stats` (Frei et al. 2022, eq. 17): L̂ and min_i −ℓ′(y_i f(x_i)) (≥ ½e^{−2} while t ≤ T − 1).
#pragma once

#include "xor_geometry.hpp"

#include <featurelab/probe.hpp>

#include <string>
#include <vector>

namespace featurelab::feature_amplification_pack {

class LossStatsProbe : public featurelab::Probe {
 public:
  static constexpr featurelab::Doc kDoc = "Training logistic loss and min_i −ℓ′(y_i f(x_i)) (Frei et al. eq. 17).";
  static featurelab::Schema schema() { return featurelab::Schema{}; }
  static featurelab::ContractData contract_data() { return xor_contract(); }
  static std::vector<std::string> metrics() {
    return {"loss", "min_neg_derivative"};
  }
  LossStatsProbe(const featurelab::Params&, featurelab::Context&) {}
  void measure(const featurelab::ProbeInput& in, featurelab::Measurements& out) override;
};

}  // namespace featurelab::feature_amplification_pack
