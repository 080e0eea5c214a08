// Probe `gradient-alignment` (Props. 3.4 / 3.5, Claim B.24): how much the ERM and the exact
// Midpoint Mixup gradients push each class's weights along its features,
//   G_{y,ℓ}(J) = ⟨−∇_{w_y} J, v_{y,ℓ}⟩   (summed over the class's neurons for the patch CNN),
// on the model's current weights, or on Section 3's "lagging" weights w_y = C·log k·v_{y,1}.
#pragma once

#include "contract_setups.hpp"

#include <featurelab/probe.hpp>

#include <string>
#include <vector>

namespace featurelab::midpoint_mixup_pack {

class GradientAlignmentProbe : public featurelab::Probe {
 public:
  static constexpr featurelab::Doc kDoc =
      "⟨−∇_{w_y}J, v_{y,l}⟩ for ERM (cross-entropy) and exact Midpoint Mixup on the training set (Props. 3.4/3.5): "
      "class means erm_lagging, mm_lagging, mm_lagging_k2 (× k²), mm_gap (along v_{y,1} − v_{y,2}), ratio (mm/erm on "
      "v_{y,2}); over classes mm_lagging_k2_min (the least, × k²) and mm_gap_max (the largest).";
  static featurelab::Schema schema();
  static std::vector<std::string> metrics() {
    return {"erm_lagging", "erm_leading", "mm_lagging", "mm_leading", "mm_lagging_k2", "mm_lagging_k2_min", "mm_gap",
            "mm_gap_max", "ratio"};
  }
  static featurelab::ContractData contract_data() { return multiview_contract(); }
  GradientAlignmentProbe(const featurelab::Params& params, featurelab::Context& context);
  void measure(const featurelab::ProbeInput& in, featurelab::Measurements& out) override;

 private:
  std::string weights_;
  double c_;
};

}  // namespace featurelab::midpoint_mixup_pack
