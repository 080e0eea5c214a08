// Attack `nearest-opposite-centre` (Li et al. 2024, the optimality argument after Thm 4.7/D.2):
// x' = x + δ (μ_l − μ_{j0})/‖μ_l − μ_{j0}‖ for the sample's own centre j0 (the nearest, argmax_j ⟨μ_j, x⟩) and every
// centre l of the other side, keeping the one with the lowest margin: the worst case of a decoupled network, which
// flips at δ ≈ α√(d/2). It reads the sample's side through the readout (binary labels, or cluster labels and the
// partition).
#pragma once

#include "cluster_geometry.hpp"

#include <featurelab/attack.hpp>
#include <featurelab/readout.hpp>

namespace featurelab::feature_averaging_pack {

class NearestOppositeCentreAttack : public featurelab::Attack {
 public:
  static constexpr featurelab::Doc kDoc =
      "x + δ (μ_l − μ_j0)/‖μ_l − μ_j0‖ for the sample's nearest centre j0 and the other side's centre l that lowers "
      "the margin most.";
  static featurelab::Schema schema();
  static featurelab::ContractData contract_data() { return clusters_contract(); }
  NearestOppositeCentreAttack(const featurelab::Params& params, featurelab::Context& context);
  void perturb(featurelab::Model& model, const featurelab::Batch& batch, double radius, featurelab::MatRef X_adv,
               featurelab::Rng& rng) override;

 private:
  featurelab::Readout readout_;
  featurelab::Mat centres_;
  featurelab::VecD sides_;
  featurelab::Mat candidate_, out_, dmargin_;
};

}  // namespace featurelab::feature_averaging_pack
