// Layer `embedding`: a row of T token ids (stored as floats, one per column, as the token data sets write them)
// to the sequence {T, d} of their embeddings,
//   x_t = c·E[token_t] + P_t                      (token and learned positional embeddings)
// with c = √d (scale = "sqrt-width": Shi 2024 ch. 4's transformer, after the grokking code base) or 1, and P
// left out with positions = "none" (a model without positions, or rotary positions applied inside attention:
// attention's positions = "rope"). Blocks E (V×d) and P (T×d), both N(0, init_std²) (init_std 1: PyTorch's
// nn.Embedding, and the transformer's). Token ids are data: the layer has no input gradient (zeros when asked).
#pragma once

#include <featurelab/layer.hpp>

#include <map>
#include <optional>
#include <string>

namespace featurelab::std_pack {

class EmbeddingLayer : public Layer {
 public:
  static constexpr Doc kDoc =
      "Token ids (a flat row of T ids) to a sequence {T, d} of embeddings c·E[token] + P_t: vocabulary from the "
      "distribution's feature \"vocab\" or given, ×√d or ×1, learned positions or none (RoPE in attention).";
  static Schema schema();
  static std::map<std::string, Value> test_params();
  EmbeddingLayer(const Params& params, Context& context);

  LayerShape build(const LayerShape& in, LayerBuilder& builder) override;
  void init(const LayerWeights& weights, Rng& rng) override;
  void forward(const LayerWeights& weights, ConstMatRef in, MatRef out, LayerTape& tape) const override;
  void backward(const LayerPass& pass, ConstMatRef dout, LayerGrads& grads) const override;
  // Its inputs are token ids in [0, V), V the vocabulary once built.
  Index token_vocabulary() const override { return vocab_; }

 private:
  std::optional<std::int64_t> requested_vocab_;
  Index width_;
  std::string scale_;
  bool learned_positions_;
  double init_std_;
  bool trainable_;
  Index vocab_ = 0, tokens_ = 0;
  Scalar c_ = 1;
  LayerBlock E_, P_;
};

}  // namespace featurelab::std_pack
