// Probe `gemfilter-selection`: GemFilter (Shi 2024 ch. 9, Alg. 2) on the pack's transformer. For every block r: the
// selection's needle coverage (both needle tokens kept), the distance from the needle's value to the nearest kept
// token (Fig. 9.5's curve), whether the query token (the prompt's last) is kept, and the accuracy of
//   GemFilter        the rerun on T_J at fresh positions 0 … k−1 (Alg. 2 line 8);
//   One-Run          App. G.4.5: no second run, the full prompt's cache evicted to J in every block and head, the
//                    answer read from it (Transformer::run_evicted);
//   rerun_original   our extra: T_J recomputed at its original positions (isolates RoPE's position reset);
//   keep_query       our extra, not the paper's: J with the query token forced in, rerun as GemFilter.
// At the filter layer (given, or the paper's rule: the first block whose selection keeps the needle in a share
// `coverage_threshold` of the prompts, §9.4.3) the headline scalars; the accuracy split by whether J kept the query
// and the query's rank (why the paper's rule loses answers on the toy); App. G.4.4's row ablation (select by the middle
// query row, or by the row of largest ℓ2 norm, instead of the last); the depth grid (Fig. 9.4's y axis); a random
// selection; Alg. 2's mechanics; Thm 9.3's counters beside the FLOPs this implementation performs.
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
      "GemFilter on a trained transformer: top-k tokens by the filter layer's last query row, rerun on the selection "
      "(and App. G.4.5's One-Run: the full run's cache evicted to the selection); needle coverage and accuracy per "
      "layer, the row ablation of App. G.4.4, a depth grid, Thm 9.3's complexity counters (Shi 2024 ch. 9).";
  static featurelab::Schema schema();
  static std::vector<std::string> metrics() {
    return {"accuracy_random", "full_k_max_difference", "one_run_all_max_difference", "filter_layer", "accuracy_full",
            "accuracy", "accuracy_one_run", "accuracy_rerun_original", "accuracy_keep_query", "accuracy_query_kept",
            "accuracy_query_dropped", "query_rank", "query_kept_unpooled", "accuracy_middle_row", "coverage_middle_row",
            "accuracy_l2_row", "coverage_l2_row", "coverage", "distance", "query_kept", "selection_valid", "kept",
            "prompt_time_ratio", "generation_time_ratio", "flops_ratio"};
  }
  static std::map<std::string, featurelab::Value> test_params() { return {{"samples", std::int64_t(8)}}; }
  static featurelab::ContractData contract_data() { return needle_contract(); }
  GemfilterSelection(const featurelab::Params& params, featurelab::Context& context);
  void measure(const featurelab::ProbeInput& in, featurelab::Measurements& out) override;

 private:
  featurelab::Index k_;
  std::optional<featurelab::Index> filter_layer_;  // empty: "auto", the paper's rule by coverage
  featurelab::Index kernel_, samples_, generated_, depth_bins_;
  double threshold_;
  Pool pool_;
  featurelab::Rng rng_;
};

}  // namespace featurelab::fourier_icl_pack
