// Layer `last-token`: a sequence {T, d} to the flat {d} of one of its tokens, by default the last (a decoder's
// readout: Shi 2024 ch. 4's transformer reads its logits at the last position). position p >= 0 counts from the
// first token, p < 0 from the end (−1: the last). The backward pass puts dy at that token, zeros elsewhere.
#pragma once

#include <featurelab/layer.hpp>

namespace featurelab::std_pack {

class LastTokenLayer : public Layer {
 public:
  static constexpr Doc kDoc =
      "A sequence {T, d} to one of its tokens {d}: position −1 (the default) is the last, as a decoder's readout.";
  static Schema schema();
  LastTokenLayer(const Params& params, Context& context);

  LayerShape build(const LayerShape& in, LayerBuilder& builder) override;
  void forward(const LayerWeights& weights, ConstMatRef in, MatRef out, LayerTape& tape) const override;
  void backward(const LayerPass& pass, ConstMatRef dout, LayerGrads& grads) const override;

 private:
  std::int64_t position_;
  Index first_ = 0, width_ = 0;  // the token's first column and its width
};

}  // namespace featurelab::std_pack
