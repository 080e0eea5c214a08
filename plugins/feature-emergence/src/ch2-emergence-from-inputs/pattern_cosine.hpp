// Probe `pattern-cosine` (Shi 2024 ch. 2, Tables A.1–A.5): max_i cos(w_i, v) and max_i cos(w_i, −v) for the
// ground truth v = Σ_{j∈A} M_j (the tables' "Cos Similarity" is the first), and the median over neurons of |cos|.
// Reads block W (rows are neurons; the NTK model's W0 + ΔW) and the distribution's features.
#pragma once

#include "first_layer.hpp"

#include <featurelab/probe.hpp>

#include <string>
#include <vector>

namespace featurelab::feature_emergence_pack {

class PatternCosine : public featurelab::Probe {
 public:
  static constexpr featurelab::Doc kDoc =
      "max_i cos(w_i, v) and max_i cos(w_i, −v) for v = Σ_{j∈A} M_j (the distribution's ground_truth), median |cos|.";
  static featurelab::Schema schema() { return featurelab::Schema{}; }
  static std::vector<std::string> metrics() { return {"max", "max_neg", "median_abs"}; }
  static featurelab::ContractData contract_data() { return patterns_contract(); }
  PatternCosine(const featurelab::Params&, featurelab::Context&) {}
  void measure(const featurelab::ProbeInput& in, featurelab::Measurements& out) override;
};

}  // namespace featurelab::feature_emergence_pack
