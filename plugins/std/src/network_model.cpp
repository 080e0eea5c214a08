// The `network` model: its layer list, made and built by the SDK's Network.
#include "network_model.hpp"

namespace featurelab::std_pack {

Schema NetworkModel::schema() {
  Schema s;
  s.components("layer", Kind::Layer,
               "the layers, first to last: [[model.layer]] tables, each with use = \"<layer>\" (featurelab list "
               "layer, or an activation's name), its parameters, and optionally name = \"...\" (its hook point) "
               "and blocks = [...] (names of its parameter blocks)")
      .non_empty();
  return s;
}

std::map<std::string, Value> NetworkModel::test_params() {
  auto layer = [](const std::string& use, std::map<std::string, Value> values) {
    ComponentSpec spec;
    spec.use = use;
    spec.params = Params(std::move(values));
    return spec;
  };
  ComponentList layers{layer("linear", {{"out", std::int64_t(6)}}), layer("tanh", {}),
                       layer("linear", {{"out", std::string("auto")}})};
  for (std::size_t i = 0; i < layers.size(); ++i) layers[i].path = "model.layer." + std::to_string(i);
  return {{"layer", Value(layers)}};
}

NetworkModel::NetworkModel(const Params& params, Context& context) : Network(params.components("layer"), context) {}

}  // namespace featurelab::std_pack
