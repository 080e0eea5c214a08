// Layer `attention`: multi-head self-attention over a sequence {T, d} (Vaswani et al. 2017; the attention of Shi
// 2024 ch. 4's transformer, fourier-icl):
//   Q = X W_q + b_q,  K = X W_k + b_k,  V = X W_v + b_v            (X: a sample's T×d tokens; Q, K, V: T×(H·a))
//   O_h = softmax(Q_h K_hᵀ/√a + mask) V_h,  y = [O_1 … O_H] W_o + b_o   (H heads of width a, H·a = d)
// mask: −∞ above the diagonal when causal (a token reads itself and the tokens before it), else none. With
// positions = "rope" every head's queries and keys are rotated by their positions before the scores (RoPE, Su et
// al. 2021, half-split pairs: coordinate i of a head's first half with coordinate i of its second half, angle
// t·base^(−2i/a)), as the transformer's positions = "rope".
//
// Blocks, as the transformer lays out and declares its l<i>.* blocks, so they copy in as they are: wq, wk, wv
// (d × H·a: inputs by rows, y = x W, head h's columns h·a … h·a + a − 1), bq, bk, bv (1 × H·a), wo (H·a × d), bo
// (1 × d); without biases (bias = false) wq, wk, wv, wo. Init as PyTorch's nn.Linear and the transformer:
// U(±1/√fan_in), fan_in d for the q/k/v blocks and H·a for wo and bo.
//
// The tape keeps Q, K (rotated), V, the attention probabilities P (n·H·T × T: row (s·H + h)·T + i is query i of
// sample s in head h, zero where masked) and the heads' outputs O. The projections are one product each over the
// n·T token rows; the scores, softmax and P·V one T×T block per (sample, head), over fixed chunks of the samples.
#pragma once

#include <featurelab/layer.hpp>

#include <map>
#include <optional>
#include <string>

namespace featurelab::std_pack {

class AttentionLayer : public Layer {
 public:
  static constexpr Doc kDoc =
      "Multi-head softmax self-attention over a sequence {T, d}: H heads of width a = d/H, causal or not, "
      "rotary positions (RoPE) or none, biases on q, k, v, o; blocks wq, wk, wv, bq, bk, bv, wo, bo.";
  static Schema schema();
  static std::map<std::string, Value> test_params();
  AttentionLayer(const Params& params, Context& context);

  LayerShape build(const LayerShape& in, LayerBuilder& builder) override;
  void init(const LayerWeights& weights, Rng& rng) override;
  void forward(const LayerWeights& weights, ConstMatRef in, MatRef out, LayerTape& tape) const override;
  void backward(const LayerPass& pass, ConstMatRef dout, LayerGrads& grads) const override;

 private:
  using StridedMatRef = Eigen::Ref<Mat, 0, Eigen::OuterStride<>>;
  // Rotates every head's (first half, second half) pairs of Q or K (N × H·a, row r at position r mod T) by their
  // positions; sign −1 rotates back (the transpose: the backward pass).
  void rotate(StridedMatRef M, Scalar sign) const;

  Index heads_;
  std::optional<std::int64_t> requested_head_width_;
  bool causal_, rope_, bias_;
  double rope_base_;
  Index tokens_ = 0, width_ = 0, head_width_ = 0;
  Mat rope_cos_, rope_sin_;  // T × a/2: cos and sin of t·base^(−2i/a)
  LayerBlock wq_, wk_, wv_, bq_, bk_, bv_, wo_, bo_;
};

}  // namespace featurelab::std_pack
