// Augment `midpoint-mixup` (Chidambaram et al. 2023 Eq. 3.1): pair mixing (pair_mixing.hpp) at λ = 1/2, the
// sampled estimator of J_MM.
#pragma once

#include "pair_mixing.hpp"

namespace featurelab::std_pack {

class MidpointMixupAugment : public PairMixing {
 public:
  static constexpr Doc kDoc =
      "Midpoint Mixup (Chidambaram et al. 2023 Eq. 3.1, sampled pairs): z = (x_i + x_j)/2 with targets "
      "(e_i + e_j)/2 for a random partner j of each sample.";
  static Schema schema();
  MidpointMixupAugment(const Params& params, Context& context);
};

}  // namespace featurelab::std_pack
