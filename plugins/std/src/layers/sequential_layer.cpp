// A sub-network as one layer: its stack on the layer's own tape.
#include "sequential_layer.hpp"

#include <featurelab/testing.hpp>

namespace featurelab::std_pack {

Schema SequentialLayer::schema() {
  Schema s;
  s.components("layers", Kind::Layer, "the layers, first to last: [{ use = \"linear\", out = 50 }, { use = \"relu\" }]")
      .non_empty();
  return s;
}

std::map<std::string, Value> SequentialLayer::test_params() {
  return {{"layers", testing::layers({testing::layer("linear", {{"out", std::int64_t(3)}}), testing::layer("tanh")},
                                     "layer.layers")}};
}

SequentialLayer::SequentialLayer(const Params& params, Context& context) : body_(params.components("layers"), context) {}

LayerShape SequentialLayer::build(const LayerShape& in, LayerBuilder& builder) {
  return body_.build(in, builder, builder.label());
}

void SequentialLayer::forward(const LayerWeights& weights, ConstMatRef in, MatRef out, LayerTape& tape) const {
  StackTape& body = tape.stack(0);
  body_.forward(weights, in, body);
  out = body.outputs.back();
}

void SequentialLayer::backward(const LayerPass& pass, ConstMatRef dout, LayerGrads& grads) const {
  body_.backward(pass.weights, pass.in, pass.tape.stack(0), dout, pass.din, pass.want_din, grads);
}

}  // namespace featurelab::std_pack
