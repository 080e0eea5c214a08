// Probe `feature-map-change` (Frei et al. 2022, Prop. 3.2): min_i ‖φ(Wx_i) − φ(W0x_i)‖/‖φ(W0x_i)‖, also × ‖W0‖_F.
#pragma once

#include "xor_geometry.hpp"

#include <featurelab/probe.hpp>

#include <string>
#include <vector>

namespace featurelab::feature_amplification_pack {

class FeatureMapChangeProbe : public featurelab::Probe {
 public:
  static constexpr featurelab::Doc kDoc =
      "Prop. 3.2: min over training points of ‖φ(Wx) − φ(W0x)‖/‖φ(W0x)‖ against the first measurement's W0, and that "
      "minimum times ‖W0‖_F (≈ ω√(md)).";
  static featurelab::Schema schema() { return featurelab::Schema{}; }
  static featurelab::ContractData contract_data() { return xor_contract(); }
  static std::vector<std::string> metrics() {
    return {"min_ratio", "min_ratio_times_init"};
  }
  FeatureMapChangeProbe(const featurelab::Params&, featurelab::Context&) {}
  void measure(const featurelab::ProbeInput& in, featurelab::Measurements& out) override;

 private:
  featurelab::Mat W0_;
};

}  // namespace featurelab::feature_amplification_pack
