// Loss `squared`: ½‖f(x) − t‖².
// Returns the mean over the batch and writes d(mean)/d(out).
#pragma once

#include <featurelab/loss.hpp>

namespace featurelab::std_pack {

class SquaredLoss : public OutputLoss {
 public:
  static constexpr Doc kDoc =
      "Squared loss ½‖f(x) − t‖² with t the targets, else one-hot labels (K outputs) or ±1 (one output).";
  static Schema schema();
  SquaredLoss(const Params& params, Context& context);
  Scalar value_and_gradient(ConstMatRef out, const Batch& batch, MatRef dout) const override;
};

}  // namespace featurelab::std_pack
