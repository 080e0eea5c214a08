// Augment `mixup` (Zhang et al. 2018): pair mixing (pair_mixing.hpp) with λ ~ Beta(a, a).
#pragma once

#include "pair_mixing.hpp"

namespace featurelab::std_pack {

class MixupAugment : public PairMixing {
 public:
  static constexpr Doc kDoc =
      "Mixup (Zhang et al. 2018): mix each sample with a random partner, λ ~ Beta(a, a) per batch or per pair, "
      "soft targets λ e_i + (1−λ) e_j.";
  static Schema schema();
  MixupAugment(const Params& params, Context& context);
};

}  // namespace featurelab::std_pack
