// Layer `square`: y = x ⊙ x, any shape. Written once, forward and backward: every network that uses it
// (use = "square" in a [[model.layer]] table) gets its gradient from it.
#pragma once

#include <featurelab/layer.hpp>

namespace margins_pack {

class SquareLayer : public featurelab::Layer {
 public:
  static constexpr featurelab::Doc kDoc = "Elementwise square y = x², no parameters.";
  static featurelab::Schema schema() { return {}; }
  SquareLayer(const featurelab::Params&, featurelab::Context&) {}

  featurelab::LayerShape build(const featurelab::LayerShape& in, featurelab::LayerBuilder&) override { return in; }
  void forward(const featurelab::LayerWeights&, featurelab::ConstMatRef in, featurelab::MatRef out,
               featurelab::LayerTape&) const override {
    out.array() = in.array().square();
  }
  // dL/dx = 2x ⊙ dL/dy; pass.in is the forward pass's input (the network keeps it on its tape).
  void backward(const featurelab::LayerPass& pass, featurelab::ConstMatRef dout, featurelab::LayerGrads&) const override {
    if (pass.want_din) pass.din.array() = 2 * pass.in.array() * dout.array();
  }
};

}  // namespace margins_pack
