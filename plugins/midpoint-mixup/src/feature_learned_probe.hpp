// Probe `feature-learned`: which features a multi-view model learned (Chidambaram et al. Def. 4.5, App. B).
#pragma once

#include "contract_setups.hpp"

#include <featurelab/probe.hpp>

#include <string>
#include <vector>

namespace featurelab::midpoint_mixup_pack {

// Def. 4.5 by ablation: feature v_{y,ℓ} is learned if class-y test points with every instance of
// the other feature v_{y,3−ℓ} removed are still classified as y (accuracy ≥ tau). Also the
// feature response R_{y,ℓ}(c) = g^y(one patch c·v_{y,ℓ}, zeros elsewhere) ≥ log k (a sum over
// the filters like App. B's C_{y,ℓ}, robust where the max Λ is not), and whether the feature with the larger initial correlation
// Λ^{(0)}_{y,ℓ} = max_r ⟨w_{y,r}, v_{y,ℓ}⟩ is the one that won (Claim B.10; not recorded when no class
// learned exactly one feature). criteria_agree: the share of classes whose learned features are the same by both.
class FeatureLearnedProbe : public featurelab::Probe {
 public:
  static constexpr featurelab::Doc kDoc =
      "Def. 4.5: per class, which of its two features is learned (ablation accuracy >= tau, and response "
      "R(c) >= log k): fractions both / one / none by each criterion, the share of classes where the two agree, "
      "ablation table, and whether the initial correlation predicted the winner (only where a class has one).";
  static featurelab::Schema schema();
  static std::vector<std::string> metrics() {
    return {"both", "one", "none", "response_both", "response_one", "response_none", "one_feature_classes",
            "criteria_agree", "init_predicts_winner", "mean_response_v1", "mean_response_v2"};
  }
  static featurelab::ContractData contract_data() { return multiview_contract(); }
  FeatureLearnedProbe(const featurelab::Params& params, featurelab::Context& context);
  void measure(const featurelab::ProbeInput& in, featurelab::Measurements& out) override;

 private:
  double tau_;
  double c_;
  featurelab::Mat initial_lambda_;  // k×2, from the first measurement (step 0)
};

}  // namespace featurelab::midpoint_mixup_pack
