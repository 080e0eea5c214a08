// Probe `feature-correlation`: the weight–feature correlations of a multi-view model (Chidambaram et al.
// Claims B.4, B.17).
#pragma once

#include "contract_setups.hpp"

#include <featurelab/probe.hpp>

#include <string>
#include <vector>

namespace featurelab::midpoint_mixup_pack {

// Λ_{y,ℓ} = max_r ⟨w_{y,r}, v_{y,ℓ}⟩ per class and feature (a table), and the off-diagonal
// maximum O = max_{y, r, s≠y, ℓ} ⟨w_{y,r}, v_{s,ℓ}⟩ (Claims B.4, B.17).
class FeatureCorrelationProbe : public featurelab::Probe {
 public:
  static constexpr featurelab::Doc kDoc =
      "Λ_{y,l} = max_r <w_{y,r}, v_{y,l}> per class and feature (table \"lambda\"), its smaller/larger feature "
      "means, and the off-diagonal max O = max_{y,r,s≠y,l} <w_{y,r}, v_{s,l}>.";
  static featurelab::Schema schema();
  static std::vector<std::string> metrics() {
    return {"smaller_mean", "larger_mean", "smaller_min", "off_diagonal", "v1_class*", "v2_class*"};
  }
  static featurelab::ContractData contract_data() { return multiview_contract(); }
  FeatureCorrelationProbe(const featurelab::Params& params, featurelab::Context& context);
  void measure(const featurelab::ProbeInput& in, featurelab::Measurements& out) override;

 private:
  bool per_class_;
};

}  // namespace featurelab::midpoint_mixup_pack
