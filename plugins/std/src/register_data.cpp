// Registers the std data sets read from files, transforms and augments.
#include "colored_mnist_distribution.hpp"
#include "fashion_mnist_distribution.hpp"
#include "identity_views_augment.hpp"
#include "label_noise_transform.hpp"
#include "midpoint_mixup_augment.hpp"
#include "mixup_augment.hpp"
#include "mnist_distribution.hpp"
#include "mnist_fashion_transfer_distribution.hpp"
#include "random_mask_augment.hpp"
#include "rotated_mnist_distribution.hpp"
#include "registration.hpp"

namespace featurelab::std_pack {

void register_data(PackBuilder& pack) {
  pack.add<MnistDistribution>("mnist");
  pack.add<FashionMnistDistribution>("fashion-mnist");
  pack.add<RotatedMnistDistribution>("rotated-mnist");
  pack.add<ColoredMnistDistribution>("colored-mnist");
  pack.add<MnistFashionTransferDistribution>("mnist-fashion-transfer");

  pack.add<LabelNoiseTransform>("label-noise");

  pack.add<MixupAugment>("mixup");
  pack.add<MidpointMixupAugment>("midpoint-mixup");
  pack.add<RandomMaskAugment>("random-mask");
  pack.add<IdentityViewsAugment>("identity-views");
}

}  // namespace featurelab::std_pack
