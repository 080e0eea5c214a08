// Probe of the modular-addition network's weights (Shi 2024 ch. 4, Lemma C.20, Thm. 4.9).
// Reads blocks U (m×kp) and W (m×p) of poly-one-hidden-layer (k = columns of U / columns of W).
//   normalized-margin   min over the FULL table D_p of f[y] − max_{c≠y} f[c], over ‖θ‖_{2,k+1}^{k+1} (margin), γ*(k, p)
//     (gamma_star), their ratio (ratio: <= 1 for every network, Thm. 4.9), the class-weighted mean margin
//     (weighted) and the accuracy over D_p (accuracy_table); ratio_max, the largest ratio at any evaluation so far;
//     ratio_train, the same minimum over the training split only (what our reference runs measured).
#pragma once

#include "common/contract_setups.hpp"

#include <featurelab/probe.hpp>

#include <limits>
#include <string>
#include <vector>

namespace featurelab::fourier_icl_pack {

class NormalizedMargin : public featurelab::Probe {
 public:
  static constexpr featurelab::Doc kDoc =
      "Minimum margin over the full table D_p divided by ‖θ‖_{2,k+1}^{k+1}, against γ*(k, p) (Shi 2024 Thm. 4.9); "
      "the class-weighted mean margin and the accuracy over D_p.";
  static featurelab::Schema schema() { return featurelab::Schema{}; }
  static std::vector<std::string> metrics() {
    return {"margin", "gamma_star", "ratio", "weighted", "accuracy_table", "ratio_max", "ratio_train"};
  }
  static featurelab::ContractData contract_data() { return modular_mlp_contract(); }
  NormalizedMargin(const featurelab::Params&, featurelab::Context&) {}
  void measure(const featurelab::ProbeInput& in, featurelab::Measurements& out) override;

 private:
  double ratio_max_ = -std::numeric_limits<double>::infinity();
  featurelab::Mat logits_;
};

}  // namespace featurelab::fourier_icl_pack
