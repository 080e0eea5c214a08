// What the exact pair-mixing losses share (midpoint_mixup_exact_loss.hpp, mixup_exact_loss.hpp): the loss over
// all N² ordered pairs of a batch (i = j included), with λ integrated exactly (a quadrature rule for Beta(a, a),
// the single node 1/2 for the midpoint):
//   J = −1/N² Σ_i Σ_j E_λ[λ log φ^{y_i}(g(z_ij)) + (1−λ) log φ^{y_j}(g(z_ij))],  z_ij = λx_i + (1−λ)x_j.
//   midpoint-mixup-exact  λ = 1/2: J_MM of Eq. 3.1
//   mixup-exact           λ ~ Beta(a, a): the Mixup loss of Eq. 2.2 (Prop. 3.3's uniform mixup at a = 1)
// Computed in activation space: the pre-activations of a mix are the same mix of the two points'
// pre-activations (LinearPreactivation), so the model's first stage runs on N points, not N², and
// the gradient flows back to the N per-sample pre-activations before one backward GEMM.
#pragma once

#include "beta_quadrature.hpp"
#include "contract_setups.hpp"

#include <featurelab/loss.hpp>
#include <featurelab/preactivation.hpp>

namespace featurelab::midpoint_mixup_pack {

class ExactPairMixingLoss : public featurelab::Loss {
 public:
  static featurelab::ContractData contract_data() { return multiview_contract(); }
  featurelab::Scalar evaluate_with_gradient(featurelab::Model& model, const featurelab::Batch& batch,
                                            featurelab::VecRef grad) override;
  featurelab::Scalar evaluate(featurelab::Model& model, const featurelab::Batch& batch) override;
  void check_model(const featurelab::Model& model, const featurelab::DataSpec& data) const override;

 protected:
  explicit ExactPairMixingLoss(Quadrature lambdas) : lambdas_(std::move(lambdas)), symmetric_(symmetric(lambdas_)) {}

 private:
  featurelab::Scalar run(featurelab::Model& model, const featurelab::Batch& batch, featurelab::VecRef* grad);

  // Nodes mirrored about 1/2 with equal weights (every Beta(a, a) rule, the midpoint).
  static bool symmetric(const Quadrature& q);
  static constexpr featurelab::Index kBlockElements = 16384;  // partners per mixed_head call × H

  Quadrature lambdas_;
  bool symmetric_;
  // One chunk of anchors' buffers and partial sums (featurelab/threads.hpp).
  struct AnchorChunk {
    featurelab::LinearPreactivation::MixedScratch scratch;
    featurelab::Mat out, dout, dZ;
    featurelab::RowVec anchor, anchor_dZ;  // λ Z_i, and Σ_j of the mixes' gradients for anchor i
    double total = 0;
  };
  std::vector<AnchorChunk> chunks_;
  featurelab::Mat Z_, dZ_;
};

}  // namespace featurelab::midpoint_mixup_pack
