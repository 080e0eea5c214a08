// The random-features model is the two-layer net (two_layer_model.cpp) with its first layer frozen.
#include "random_features_model.hpp"

namespace featurelab::std_pack {

Schema RandomFeaturesModel::schema() { return common_schema(true); }

}  // namespace featurelab::std_pack
