// Registers the std transforms.
#include "label_noise.hpp"
#include "registration.hpp"

namespace featurelab::std_pack {

void register_data(PackBuilder& pack) {
  pack.add<LabelNoise>("label-noise");
}

}  // namespace featurelab::std_pack
