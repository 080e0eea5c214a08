// Layer `activation`: y = φ(x) elementwise, for any built-in activation or a pack's (featurelab list
// activation). A layer table may name the activation itself: use = "relu", use = "tanh" is this layer
// with activation = "relu", "tanh". φ'(x) is kept on the tape in the forward pass, the same pass that
// computes φ(x), so the backward pass is one product dy ⊙ φ'(x).
#pragma once

#include <featurelab/activation.hpp>
#include <featurelab/layer.hpp>

namespace featurelab::std_pack {

class ActivationLayer : public Layer {
 public:
  static constexpr Doc kDoc =
      "Elementwise activation φ (relu, leaky-relu, smoothed-relu, poly, identity, or a pack's: tanh, gelu, "
      "softplus, ...); a layer table may name it directly: use = \"relu\".";
  static Schema schema();
  ActivationLayer(const Params& params, Context& context);

  LayerShape build(const LayerShape& in, LayerBuilder& builder) override;
  void forward(const LayerWeights& weights, ConstMatRef in, MatRef out, LayerTape& tape) const override;
  void backward(const LayerPass& pass, ConstMatRef dout, LayerGrads& grads) const override;

 private:
  Activation activation_;
};

}  // namespace featurelab::std_pack
