// Probe `kv-eviction`: the KV-cache eviction baselines of Shi 2024 ch. 9 (§9.4.1–9.4.2: SnapKV, H2O;
// eviction_rules.hpp) on the pack's transformer: the whole prompt computed once, then every block's and head's cache
// kept to k positions by the rule, and the answer read from the evicted caches (Transformer::run_evicted; no
// second run, as GemFilter-One-Run but with one index set per block and head). Per method: accuracy, the share of
// (prompt, block, head) caches keeping both needle tokens, and the depth grid.
#pragma once

#include "common/contract_setups.hpp"
#include "gemfilter.hpp"

#include <featurelab/probe.hpp>

#include <string>
#include <vector>

namespace featurelab::fourier_icl_pack {

class KvEviction : public featurelab::Probe {
 public:
  static constexpr featurelab::Doc kDoc =
      "SnapKV and H2O KV-cache eviction on a trained transformer: per block and head, k cached positions chosen from "
      "the full run's attention; accuracy from the evicted caches, needle kept, depth grid (Shi 2024 ch. 9 baselines).";
  static featurelab::Schema schema();
  static std::vector<std::string> metrics() {
    return {"accuracy_snapkv", "accuracy_h2o", "needle_kept_snapkv", "needle_kept_h2o", "budget_valid", "all_kept_max_difference"};
  }
  static std::map<std::string, featurelab::Value> test_params() { return {{"samples", std::int64_t(8)}}; }
  static featurelab::ContractData contract_data() { return needle_contract(); }
  KvEviction(const featurelab::Params& params, featurelab::Context& context);
  void measure(const featurelab::ProbeInput& in, featurelab::Measurements& out) override;

 private:
  featurelab::Index k_, window_, kernel_, samples_, depth_bins_;
  Pool pool_;
};

}  // namespace featurelab::fourier_icl_pack
