// The std pack: generic distributions, transforms, augments, models, losses, optimizers, trainer, probes and
// attacks.
#include "registration.hpp"

#include <featurelab/pack.hpp>

FEATURELAB_PACK("std", "0.1.0") {
  featurelab::std_pack::register_learning(pack);
  featurelab::std_pack::register_experiment(pack);
  featurelab::std_pack::register_data(pack);
  featurelab::std_pack::register_layers(pack);
}
