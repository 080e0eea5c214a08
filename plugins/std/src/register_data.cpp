// Registers the std data sets read from files, transforms and augments.
#include "fashion_mnist.hpp"
#include "label_noise.hpp"
#include "mnist.hpp"
#include "pair_mixing.hpp"
#include "registration.hpp"
#include "view_pairs.hpp"

namespace featurelab::std_pack {

void register_data(PackBuilder& pack) {
  pack.add<Mnist>("mnist");
  pack.add<FashionMnist>("fashion-mnist");

  pack.add<LabelNoise>("label-noise");

  pack.add<Mixup>("mixup");
  pack.add<MidpointMixup>("midpoint-mixup");
  pack.add<RandomMask>("random-mask");
  pack.add<IdentityViews>("identity-views");
}

}  // namespace featurelab::std_pack
