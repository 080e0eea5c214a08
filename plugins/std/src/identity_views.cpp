// No augmentation: both views are the positive itself (the baseline arms of Wen & Li 2021).
#include "view_pairs.hpp"

namespace featurelab::std_pack {

IdentityViews::IdentityViews(const Params& params, Context& context) : ViewPairs(params, context) {}

void IdentityViews::views(ConstMatRef X, MatRef anchors, MatRef positives, Rng&) {
  anchors = X;
  positives = X;
}

}  // namespace featurelab::std_pack
