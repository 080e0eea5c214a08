// Model `random-features`: the two-layer net (two_layer_model.hpp) with the first layer frozen at its random
// init and only the second layer trained.
#pragma once

#include "two_layer_model.hpp"

namespace featurelab::std_pack {

class RandomFeaturesModel : public TwoLayerModel {
 public:
  static constexpr Doc kDoc =
      "Random-features model: a two-layer network whose first layer stays at its random init; only the "
      "second layer (K×m) is trained.";
  static Schema schema();
  RandomFeaturesModel(const Params& params, Context& context) : TwoLayerModel(params, context, true) {}
};

}  // namespace featurelab::std_pack
