// Midpoint Mixup: pair mixing at λ = 1/2, so only the pairing is a parameter.
#include "pair_mixing.hpp"

namespace featurelab::std_pack {

Schema MidpointMixup::schema() {
  Schema s;
  declare_pairing(s);
  return s;
}

MidpointMixup::MidpointMixup(const Params& params, Context&)
    : PairMixing(0.0, false, params.str("pairing") == "permutation") {}

}  // namespace featurelab::std_pack
