// Loss `logistic`: log(1 + exp(−y f(x))) of one output.
// Returns the mean over the batch and writes d(mean)/d(out).
#pragma once

#include <featurelab/capabilities.hpp>
#include <featurelab/loss.hpp>

namespace featurelab::std_pack {

class LogisticLoss : public OutputLoss, public SeparableLoss {
 public:
  static constexpr Doc kDoc =
      "Logistic loss log(1 + exp(−y f(x))) of one output with y = ±1; a one-column target is the "
      "probability of the positive class (soft labels).";
  static Schema schema();
  LogisticLoss(const Params& params, Context& context);
  void check_model(const Model& model, const DataSpec& data) const override;
  Scalar value_and_gradient(ConstMatRef out, const Batch& batch, MatRef dout) const override;
  // A mean over rows: a model may run forward, loss and backward block by block (FusedStep).
  double row_block(ConstMatRef out, const Batch& batch, Index first, Index total, MatRef dout) const override;

 private:
  mutable Eigen::Array<Scalar, Eigen::Dynamic, 1> t_;  // the positive class's probability, reused per batch size
};

}  // namespace featurelab::std_pack
