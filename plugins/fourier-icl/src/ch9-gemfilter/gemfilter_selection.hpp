// Probe `gemfilter-selection`: for every block r, the selection's needle coverage (both needle tokens kept), the
// distance from the needle's value to the nearest kept token (Fig. 9.5's curve), and the accuracy of the rerun with
// fresh and with original positions, and with the query token forced into the selection (accuracy_keep_query); at
// the filter layer (given, or the first block whose coverage reaches
// `coverage_threshold`) the headline scalars, a random-selection baseline, Alg. 2's mechanics and Thm 9.3's
// counters beside the FLOPs this implementation performs.
#pragma once

#include "common/contract_setups.hpp"
#include "gemfilter.hpp"

#include <featurelab/probe.hpp>

#include <optional>
#include <string>
#include <vector>

namespace featurelab::fourier_icl_pack {

class GemfilterSelection : public featurelab::Probe {
 public:
  static constexpr featurelab::Doc kDoc =
      "GemFilter on a trained transformer: top-k tokens by the filter layer's last query row, rerun on the selection; "
      "needle coverage and accuracy per layer, Thm 9.3's complexity counters (Shi 2024 ch. 9).";
  static featurelab::Schema schema();
  static std::vector<std::string> metrics() {
    return {"accuracy_random", "full_k_max_difference", "filter_layer", "accuracy_full", "accuracy",
            "accuracy_one_run", "accuracy_keep_query", "coverage", "distance", "query_kept", "selection_valid",
            "kept", "prompt_time_ratio", "generation_time_ratio", "flops_ratio"};
  }
  static std::map<std::string, featurelab::Value> test_params() { return {{"samples", std::int64_t(8)}}; }
  static featurelab::ContractData contract_data() { return needle_contract(); }
  GemfilterSelection(const featurelab::Params& params, featurelab::Context& context);
  void measure(const featurelab::ProbeInput& in, featurelab::Measurements& out) override;

 private:
  featurelab::Index k_;
  std::optional<featurelab::Index> filter_layer_;  // empty: "auto", picked by coverage
  featurelab::Index kernel_, samples_, generated_;
  double threshold_;
  Pool pool_;
  featurelab::Rng rng_;
};

}  // namespace featurelab::fourier_icl_pack
