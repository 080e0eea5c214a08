// Probe `ood-accuracy` (Shi 2024 ch. 6): accuracy on the test split (in-domain) and on the distribution's
// out-of-domain set (features ood_inputs / ood_labels), and err_ood / err_id (7/3 for any bias-free linear classifier
// on dg-toy-2d with both weights positive).
#pragma once

#include "../contract_setups.hpp"

#include <featurelab/probe.hpp>

#include <string>
#include <vector>

namespace featurelab::representation_theory_pack {

class OodAccuracy : public featurelab::Probe {
 public:
  static constexpr featurelab::Doc kDoc =
      "In-domain (test split) and out-of-domain (features ood_inputs / ood_labels) accuracy, and err_ood/err_id.";
  static featurelab::Schema schema();
  static std::vector<std::string> metrics() { return {"id", "ood", "error_ratio"}; }
  static featurelab::ContractData contract_data() { return dg_toy_contract(); }
  OodAccuracy(const featurelab::Params& params, featurelab::Context& context);
  void measure(const featurelab::ProbeInput& in, featurelab::Measurements& out) override;

 private:
  featurelab::Mat scores_;
};

}  // namespace featurelab::representation_theory_pack
