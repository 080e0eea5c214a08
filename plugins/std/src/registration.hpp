// The std pack registers its components in four groups, each in its own file.
#pragma once

#include <featurelab/pack.hpp>

namespace featurelab::std_pack {

// Models, losses, optimizers, regularizers (register_learning.cpp).
void register_learning(PackBuilder& pack);
// Distributions, trainer, probes, attacks (register_experiment.cpp).
void register_experiment(PackBuilder& pack);
// Data sets read from files, transforms, augments (register_data.cpp).
void register_data(PackBuilder& pack);
// Layers and the `network` model composed of them (register_layers.cpp).
void register_layers(PackBuilder& pack);

}  // namespace featurelab::std_pack
