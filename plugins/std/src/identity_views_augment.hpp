// Augment `identity-views`: view pairs (view_pairs.hpp) with x⁺ = x⁺⁺ = x (no augmentation).
#pragma once

#include "view_pairs.hpp"

namespace featurelab::std_pack {

class IdentityViewsAugment : public ViewPairs {
 public:
  static constexpr Doc kDoc =
      "No augmentation: x⁺ = x⁺⁺ = x for the first `positives` rows, the rest stay raw negatives (the contrastive "
      "layout of random-mask).";
  IdentityViewsAugment(const Params& params, Context& context);

 protected:
  void views(ConstMatRef X, MatRef anchors, MatRef positives, Rng& rng) override;
};

}  // namespace featurelab::std_pack
