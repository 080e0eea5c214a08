// No augmentation: both views are the positive itself (the baseline arms of Wen & Li 2021).
#include "identity_views_augment.hpp"

namespace featurelab::std_pack {

IdentityViewsAugment::IdentityViewsAugment(const Params& params, Context& context) : ViewPairs(params, context) {}

void IdentityViewsAugment::views(ConstMatRef X, MatRef anchors, MatRef positives, Rng&) {
  anchors = X;
  positives = X;
}

}  // namespace featurelab::std_pack
