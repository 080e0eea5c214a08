// Probe `feature-support` (Shi 2024 ch. 6): weights of a 1×d block on the invariant coordinates R vs the
// environmental U (feature "invariant"): α̂ = mean_R w, β̂ = mean_U w, α̂/β̂, nonzero counts, whether the support lies
// in R (Lemma 6.2 / Prop. 6.3), Lemma 6.1's bounds 3/(4γ) and 1/√r beside them.
#pragma once

#include "../contract_setups.hpp"

#include <featurelab/probe.hpp>

#include <string>
#include <vector>

namespace featurelab::representation_theory_pack {

class FeatureSupport : public featurelab::Probe {
 public:
  static constexpr featurelab::Doc kDoc =
      "Weights on the invariant vs environmental features (α̂, β̂, α̂/β̂, support counts) against Lemma 6.1's bounds.";
  static featurelab::Schema schema();
  static std::vector<std::string> metrics() {
    return {"alpha", "beta", "ratio", "nonzero_invariant", "nonzero_environmental", "support_in_invariant", "alpha_bound"};
  }
  static featurelab::ContractData contract_data() { return dg_theory_contract(); }
  FeatureSupport(const featurelab::Params& params, featurelab::Context& context);
  void measure(const featurelab::ProbeInput& in, featurelab::Measurements& out) override;

 private:
  std::string block_;
  double tol_;
};

}  // namespace featurelab::representation_theory_pack
