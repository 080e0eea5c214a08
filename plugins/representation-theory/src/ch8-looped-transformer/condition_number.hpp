// Probe `condition-number` (Shi 2024 ch. 8, Def. 8.12, §8.6): κ = λ_max(XᵀX) / λ_min(XᵀX) of each test prompt's
// examples, the quantity every rate of the chapter is written in. Scalars: kappa (the mean over the prompts: the
// chapter's "average κ", 4.57 / 3.13 / 2.07 / 1.62 for n = 16 / 32 / 64 / 128 at d = 4 over 10 trials), kappa_min,
// kappa_max, lambda_min and lambda_max (means). Table `kappa`: per prompt κ, λ_min, λ_max.
#pragma once

#include "../contract_setups.hpp"

#include <featurelab/probe.hpp>

#include <string>
#include <vector>

namespace featurelab::representation_theory_pack {

class ConditionNumber : public featurelab::Probe {
 public:
  static constexpr featurelab::Doc kDoc =
      "κ = λ_max/λ_min of XᵀX for each test prompt (Def. 8.12): mean, min, max, mean extreme eigenvalues; per-prompt table.";
  static featurelab::Schema schema() { return featurelab::Schema{}; }
  static std::vector<std::string> metrics() { return {"kappa", "kappa_min", "kappa_max", "lambda_min", "lambda_max"}; }
  static featurelab::ContractData contract_data() { return looped_contract(); }
  ConditionNumber(const featurelab::Params&, featurelab::Context&) {}
  void measure(const featurelab::ProbeInput& in, featurelab::Measurements& out) override;
};

}  // namespace featurelab::representation_theory_pack
