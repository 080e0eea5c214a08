// Model `network`: a network written as layers in the pipeline, one [[model.layer]] table each (layer
// kinds: featurelab list layer). Its backward pass, input gradient and hook points come from the layers
// (featurelab/network.hpp): nothing is hand-written.
//
//   [model]
//   use = "network"
//   [[model.layer]]
//   use = "linear"
//   out = 100
//   [[model.layer]]
//   use = "tanh"
//   [[model.layer]]
//   use = "linear"          # out = "auto": one output per class, or 1 for ±1 labels
#pragma once

#include <featurelab/network.hpp>

namespace featurelab::std_pack {

class NetworkModel : public Network {
 public:
  static constexpr Doc kDoc =
      "A network composed of layers written in the pipeline ([[model.layer]] tables: linear, activations, "
      "conv2d, pool, layer-norm, attention, residual, ...); gradients, input gradients and hook points (every "
      "layer's output, by its name or place) come from the layers.";
  static Schema schema();
  static std::map<std::string, Value> test_params();
  NetworkModel(const Params& params, Context& context);
};

}  // namespace featurelab::std_pack
