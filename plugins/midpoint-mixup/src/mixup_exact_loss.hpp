// Loss `mixup-exact`: the Mixup loss of Chidambaram et al. Eq. 2.2, every pair of the batch with λ ~ Beta(a, a)
// integrated by quadrature (exact_pair_mixing.hpp has the computation).
#pragma once

#include "exact_pair_mixing.hpp"

namespace featurelab::midpoint_mixup_pack {

class MixupExactLoss : public ExactPairMixingLoss {
 public:
  static constexpr featurelab::Doc kDoc =
      "Exact Mixup loss (Eq. 2.2) over all N² pairs of the batch with λ ~ Beta(a, a) integrated by Gauss–Jacobi "
      "quadrature, computed from the N per-sample pre-activations (patch-two-layer, linear).";
  static featurelab::Schema schema();
  MixupExactLoss(const featurelab::Params& params, featurelab::Context& context);
};

}  // namespace featurelab::midpoint_mixup_pack
