// Layer `flatten`: any shape to flat features, the values as they lie: a channels-last image {C, H, W}
// becomes H·W·C values position after position (what conv-net's head reads), a channels-first image C·H·W
// values channel after channel, a sequence T·d values token after token. Forward and backward are copies.
#pragma once

#include <featurelab/layer.hpp>

namespace featurelab::std_pack {

class FlattenLayer : public Layer {
 public:
  static constexpr Doc kDoc =
      "Flattens an image or a sequence to flat features (a channels-last image position after position), for a "
      "linear layer after conv2d and pool.";
  static Schema schema();
  FlattenLayer(const Params& params, Context& context);

  LayerShape build(const LayerShape& in, LayerBuilder& builder) override;
  void forward(const LayerWeights& weights, ConstMatRef in, MatRef out, LayerTape& tape) const override;
  void backward(const LayerPass& pass, ConstMatRef dout, LayerGrads& grads) const override;
};

}  // namespace featurelab::std_pack
