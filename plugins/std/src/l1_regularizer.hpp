// Regularizer `l1`, a penalty any pipeline adds to any loss with a [[regularizer]] table: λ·‖θ_B‖₁,
// subgradient λ·sign(θ) (0 at 0): the convex relaxation of a support budget. A subgradient step only hovers
// around zero; for exact zeros use optimizer gd's `l1` (ISTA).
#pragma once

#include "weight_penalty.hpp"

namespace featurelab::std_pack {

class L1Regularizer : public WeightPenalty {
 public:
  static constexpr Doc kDoc =
      "λ·‖θ‖₁ over chosen parameter blocks, subgradient λ·sign(θ): the convex relaxation of a support budget.";
  L1Regularizer(const Params& params, Context&) : WeightPenalty(params, "l1") {}
  Scalar add_penalty(Model& model, const Batch& batch, Index step, VecRef grad) override;
  Scalar penalty(Model& model, const Batch& batch, Index step) override;
};

}  // namespace featurelab::std_pack
