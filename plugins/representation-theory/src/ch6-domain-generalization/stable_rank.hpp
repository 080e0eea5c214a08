// Probe `stable-rank` (Shi 2024 ch. 6): singular values of a hook point's feature matrix on a split (train, test or
// ood), or of a parameter block (`block`): stable rank ‖F‖_F²/‖F‖_2² (the standard one; `printed` = ‖F‖_F²/‖F‖_2 as
// Sec. 6.3.3 prints it, not scale-invariant), ‖F‖_*/N, σ2/σ1; table `singular_values`.
#pragma once

#include "../contract_setups.hpp"

#include <featurelab/probe.hpp>

#include <string>
#include <vector>

namespace featurelab::representation_theory_pack {

class StableRank : public featurelab::Probe {
 public:
  static constexpr featurelab::Doc kDoc =
      "Singular values of a hook point's feature matrix on a split: stable rank (standard and as printed), "
      "nuclear norm / N, σ2/σ1.";
  static featurelab::Schema schema();
  static std::vector<std::string> metrics() {
    return {"stable_rank", "stable_rank_printed", "nuclear_per_sample", "sigma_ratio"};
  }
  static featurelab::ContractData contract_data() { return dg_toy_contract(); }
  StableRank(const featurelab::Params& params, featurelab::Context& context);
  void measure(const featurelab::ProbeInput& in, featurelab::Measurements& out) override;

 private:
  std::string hook_, block_, split_;
  featurelab::Mat features_;
};

}  // namespace featurelab::representation_theory_pack
