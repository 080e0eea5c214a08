// Layer `layer-norm`: y = γ ⊙ (x − μ)/√(σ² + ε) + β over the last dimension, each token of a sequence {T, d} on
// its own (or a flat row {D} as one), μ and σ² that token's mean and (biased) variance: Ba et al. (2016), as
// PyTorch's nn.LayerNorm(d) and the pre-norm blocks of Shi 2024 ch. 4's transformer (fourier-icl). Blocks g (γ,
// 1×d, init 1) and b (β, 1×d, init 0). The forward pass keeps every row's μ and 1/√(σ² + ε) on the tape; the
// backward pass rebuilds x̂ from them and the input:
//   dx = (1/√(σ² + ε))·(dx̂ − mean(dx̂) − x̂·mean(dx̂ ⊙ x̂)),  dx̂ = γ ⊙ dy;  ∇γ = Σ_rows dy ⊙ x̂,  ∇β = Σ_rows dy.
#pragma once

#include <featurelab/layer.hpp>

namespace featurelab::std_pack {

class LayerNormLayer : public Layer {
 public:
  static constexpr Doc kDoc =
      "Layer normalisation over each token's (or a flat row's) last dimension, with a trained gain γ and bias β "
      "(blocks g, b); ε = 1e-5 as PyTorch.";
  static Schema schema();
  LayerNormLayer(const Params& params, Context& context);

  LayerShape build(const LayerShape& in, LayerBuilder& builder) override;
  void init(const LayerWeights& weights, Rng& rng) override;
  void forward(const LayerWeights& weights, ConstMatRef in, MatRef out, LayerTape& tape) const override;
  void backward(const LayerPass& pass, ConstMatRef dout, LayerGrads& grads) const override;

 private:
  Scalar epsilon_;
  bool trainable_;
  Index width_ = 0, tokens_ = 1;  // each of a sample's `tokens_` rows of `width_` normalised alone
  LayerBlock g_, b_;
};

}  // namespace featurelab::std_pack
