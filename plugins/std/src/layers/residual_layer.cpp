// x + f(x): the sub-network on the layer's own tape, its input gradient added to the skip's.
#include "residual_layer.hpp"

#include <featurelab/error.hpp>
#include <featurelab/testing.hpp>

namespace featurelab::std_pack {

Schema ResidualLayer::schema() {
  Schema s;
  s.components("layers", Kind::Layer, "the layers of f, first to last: [{ use = \"layer-norm\" }, { use = \"linear\" }, ...]")
      .non_empty();
  return s;
}

// The contract test's first input is flat with 5 features: f keeps them.
std::map<std::string, Value> ResidualLayer::test_params() {
  return {{"layers", testing::layers({testing::layer("linear", {{"out", std::int64_t(5)}}), testing::layer("tanh")},
                                     "layer.layers")}};
}

ResidualLayer::ResidualLayer(const Params& params, Context& context) : body_(params.components("layers"), context) {}

LayerShape ResidualLayer::build(const LayerShape& in, LayerBuilder& builder) {
  const LayerShape out = body_.build(in, builder, builder.label());
  if (out != in) {
    const auto& last = body_.entries().back();
    throw Error("its layers change the shape from " + in.describe() + " to " + out.describe() + " (the last, " +
                last.path + " (" + last.use + (last.where.empty() ? "" : ", at " + last.where) +
                "), gives the latter); x + f(x) needs f to keep it: e.g. linear's out = " +
                std::to_string(in.features()));
  }
  return in;
}

void ResidualLayer::forward(const LayerWeights& weights, ConstMatRef in, MatRef out, LayerTape& tape) const {
  StackTape& body = tape.stack(0);
  body_.forward(weights, in, body);
  out = in + body.outputs.back();
}

void ResidualLayer::backward(const LayerPass& pass, ConstMatRef dout, LayerGrads& grads) const {
  StackTape& body = pass.tape.stack(0);
  Mat& din = pass.tape.buffer(0, pass.in.rows(), pass.in.cols());
  body_.backward(pass.weights, pass.in, body, dout, din, pass.want_din, grads);
  if (pass.want_din) pass.din = dout + din;
}

}  // namespace featurelab::std_pack
