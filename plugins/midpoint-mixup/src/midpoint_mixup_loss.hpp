// Loss `midpoint-mixup-exact`: J_MM of Eq. 3.1 over all N² ordered pairs (i = j included),
//   J_MM = −1/(2N²) Σ_i Σ_j [log φ^{y_i}(g(z_ij)) + log φ^{y_j}(g(z_ij))],  z_ij = (x_i + x_j)/2,
// computed in activation space: the pre-activations of a midpoint are the mean of the two points'
// (LinearPreactivation), so the model's first stage runs on N points, not N², and the gradient
// flows back to the N per-sample pre-activations before one backward GEMM.
#pragma once

#include <featurelab/loss.hpp>
#include <featurelab/preactivation.hpp>

namespace midpoint_mixup {

class MidpointMixupLoss : public featurelab::Loss {
 public:
  static constexpr const char* kDoc =
      "Exact Midpoint Mixup loss J_MM (Eq. 3.1) over all N² pairs of the batch, computed from the N per-sample "
      "pre-activations (models with affine pre-activations: patch-two-layer, linear).";
  static featurelab::Schema schema();
  MidpointMixupLoss(const featurelab::Params& params, featurelab::Context& context);

  featurelab::Scalar evaluate_with_gradient(featurelab::Model& model, const featurelab::Batch& batch,
                                            featurelab::VecRef grad) override;
  featurelab::Scalar evaluate(featurelab::Model& model, const featurelab::Batch& batch) override;
  void check_model(const featurelab::Model& model, const featurelab::DataSpec& data) const override;

 private:
  featurelab::Scalar run(featurelab::Model& model, const featurelab::Batch& batch, featurelab::VecRef* grad);

  featurelab::Mat Z_, pair_Z_, out_, dout_, pair_dZ_, dZ_;
};

}  // namespace midpoint_mixup
