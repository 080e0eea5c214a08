// Loss `midpoint-mixup-exact`: J_MM of Chidambaram et al. Eq. 3.1, every pair of the batch mixed at λ = 1/2
// (exact_pair_mixing.hpp has the computation).
#pragma once

#include "exact_pair_mixing.hpp"

namespace featurelab::midpoint_mixup_pack {

class MidpointMixupExactLoss : public ExactPairMixingLoss {
 public:
  static constexpr featurelab::Doc kDoc =
      "Exact Midpoint Mixup loss J_MM (Eq. 3.1) over all N² pairs of the batch, computed from the N per-sample "
      "pre-activations (models with affine pre-activations: patch-two-layer, linear).";
  static featurelab::Schema schema();
  MidpointMixupExactLoss(const featurelab::Params& params, featurelab::Context& context);
};

}  // namespace featurelab::midpoint_mixup_pack
