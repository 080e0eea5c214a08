// Regularizer `l2`, a penalty any pipeline adds to any loss with a [[regularizer]] table: (λ/2)·‖θ_B‖² over
// the named blocks B (all trainable blocks by default): ERM-ℓ2 of Shi 2024 eq. 6.4; unlike an optimizer's
// weight decay it is part of the objective.
#pragma once

#include "weight_penalty.hpp"

namespace featurelab::std_pack {

class L2Regularizer : public WeightPenalty {
 public:
  static constexpr Doc kDoc =
      "(λ/2)·‖θ‖² over chosen parameter blocks, added to the loss (ERM-ℓ2, Shi 2024 eq. 6.4).";
  L2Regularizer(const Params& params, Context&) : WeightPenalty(params, "l2") {}
  Scalar add_penalty(Model& model, const Batch& batch, Index step, VecRef grad) override;
  Scalar penalty(Model& model, const Batch& batch, Index step) override;
};

}  // namespace featurelab::std_pack
