// Attack `feature-averaging-direction` (Li, Pan, Lyu, Li 2024, Remark 4.2): x' = x − s·δ·u,
// u = (Σ_{J+} μ_j − Σ_{J−} μ_j)/‖·‖, s the sample's side: flips a feature-averaging network at δ ≈ α√(d/k).
// It reads the sample's side through the readout (binary labels, or cluster labels and the partition).
#pragma once

#include "cluster_geometry.hpp"

#include <featurelab/attack.hpp>
#include <featurelab/readout.hpp>

namespace featurelab::feature_averaging_pack {

class FeatureAveragingDirectionAttack : public featurelab::Attack {
 public:
  static constexpr featurelab::Doc kDoc =
      "x − s·δ·u with u ∝ Σ_{J+} μ_j − Σ_{J−} μ_j and s the sample's side (Li et al. Remark 4.2).";
  static featurelab::Schema schema();
  static featurelab::ContractData contract_data() { return clusters_contract(); }
  FeatureAveragingDirectionAttack(const featurelab::Params& params, featurelab::Context& context);
  void perturb(featurelab::Model& model, const featurelab::Batch& batch, double radius, featurelab::MatRef X_adv,
               featurelab::Rng& rng) override;

 private:
  featurelab::Readout readout_;
  featurelab::Vec direction_;
};

}  // namespace featurelab::feature_averaging_pack
