// Probe `decision-grid` (Frei et al. 2022, Figure 1): sgn f on a grid of the first two coordinates (table → heatmap).
#pragma once

#include "xor_geometry.hpp"

#include <featurelab/probe.hpp>

#include <string>
#include <vector>

namespace featurelab::feature_amplification_pack {

class DecisionGridProbe : public featurelab::Probe {
 public:
  static constexpr featurelab::Doc kDoc =
      "sgn f on a resolution × resolution grid of [low, high]² in the first two coordinates (others 0): table "
      "\"sign\", drawn as a heatmap by featurelab plot (Figure 1).";
  static featurelab::Schema schema();
  static featurelab::ContractData contract_data() { return xor_contract(); }
  // It writes only the table "sign" (no scalar): no metric names.
  static std::vector<std::string> metrics() { return {}; }
  DecisionGridProbe(const featurelab::Params& params, featurelab::Context& context);
  void measure(const featurelab::ProbeInput& in, featurelab::Measurements& out) override;

 private:
  double low_, high_;
  featurelab::Index resolution_;
};

}  // namespace featurelab::feature_amplification_pack
