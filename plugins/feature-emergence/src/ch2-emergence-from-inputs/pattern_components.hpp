// Probe `pattern-components` (Shi 2024 ch. 2, Lemma 2.6): q_i = M w_i for the neurons nearest ±v: the
// noise/signal ratio ‖q_{i,−A}‖/‖q_{i,A}‖ (median), whether the q_{i,l}, l ∈ A, share one sign, and their spread
// max/min. Reads block W (rows are neurons; the NTK model's W0 + ΔW) and the distribution's features.
#pragma once

#include "first_layer.hpp"

#include <featurelab/probe.hpp>

#include <string>
#include <vector>

namespace featurelab::feature_emergence_pack {

class PatternComponents : public featurelab::Probe {
 public:
  static constexpr featurelab::Doc kDoc =
      "For the neurons with |cos(w, v)| >= near (default 0.5): median ‖q_{−A}‖/‖q_A‖ (q = M w), the fraction whose "
      "relevant components share one sign, and the median spread max/min |q_A| (Lemma 2.6).";
  static featurelab::Schema schema();
  static std::vector<std::string> metrics() { return {"examined", "noise_signal_median", "same_sign", "spread_median"}; }
  static featurelab::ContractData contract_data() { return patterns_contract(); }
  PatternComponents(const featurelab::Params& params, featurelab::Context& context);
  void measure(const featurelab::ProbeInput& in, featurelab::Measurements& out) override;

 private:
  double near_;
};

}  // namespace featurelab::feature_emergence_pack
