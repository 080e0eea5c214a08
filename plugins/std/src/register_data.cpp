// Registers the std transforms and augments.
#include "label_noise.hpp"
#include "pair_mixing.hpp"
#include "registration.hpp"

namespace featurelab::std_pack {

void register_data(PackBuilder& pack) {
  pack.add<LabelNoise>("label-noise");

  pack.add<Mixup>("mixup");
  pack.add<MidpointMixup>("midpoint-mixup");
}

}  // namespace featurelab::std_pack
