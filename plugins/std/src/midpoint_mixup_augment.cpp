// Midpoint Mixup: pair mixing at λ = 1/2, so only the pairing is a parameter.
#include "midpoint_mixup_augment.hpp"

namespace featurelab::std_pack {

Schema MidpointMixupAugment::schema() {
  Schema s;
  declare_pairing(s);
  return s;
}

MidpointMixupAugment::MidpointMixupAugment(const Params& params, Context&)
    : PairMixing(0.0, false, params.str("pairing") == "permutation") {}

}  // namespace featurelab::std_pack
