// Model `transformer` (Shi 2024 ch. 4, §4.5 and Figs. 4.3–4.4; the architecture of the grokking code base the
// chapter builds on, as the extraction's M2 infers it): a decoder over token sequences, read out at the last
// position.
//   x⁰_t = √D·E[token_t] + P_t                                  (token and learned positional embeddings)
//   per layer:  x ← x + MHA(LN(x)),   x ← x + W_2 GELU(W_1 LN(x) + b_1) + b_2      (pre-norm blocks)
//     MHA(u) = concat_h(softmax(Q_h K_hᵀ/√a + causal mask) V_h) W_o + b_o,  Q = uW_q + b_q, K, V likewise (H heads
//     of width a)
//   logits = LN_f(x_T) W_out + b_out
// GELU is the exact erf form; no dropout (the chapter does not say whether it kept the code base's 0.1). Init as
// PyTorch's defaults: linear weights and biases U(±1/√fan_in), embeddings N(0, 1), LayerNorm γ = 1, β = 0.
// Inputs are token ids (one per column, as floats; the vocabulary size from `vocab` or the distribution's feature
// "vocab"). Forward and backward are whole-batch GEMMs over the n·T token rows, plus one T×T softmax block per
// (sample, head); every buffer is the model's and reused.
// Blocks: embed (V×D), pos (T×D), l<i>.{ln1_g, ln1_b, wq, bq, wk, bk, wv, bv, wo, bo, ln2_g, ln2_b, w1, b1, w2, b2},
// lnf_g, lnf_b, out (D×C), bout, and the frozen attention_shape = [H, a] that probes read.
#pragma once

#include <featurelab/model.hpp>

#include <vector>

namespace fourier_icl {

class Transformer : public featurelab::Model {
 public:
  static constexpr const char* kDoc =
      "Pre-norm decoder transformer over token ids (embeddings ×√D + learned positions, L blocks of H-head causal "
      "softmax attention and a GELU MLP, final LayerNorm, readout at the last token); batched forward and backward.";
  static featurelab::Schema schema();
  Transformer(const featurelab::Params& params, featurelab::Context& context);
  featurelab::Index outputs() const override { return classes_; }
  void init(featurelab::Rng& rng) override;
  void forward(featurelab::ConstMatRef X, featurelab::MatRef out) override;
  void backward(featurelab::ConstMatRef X, featurelab::ConstMatRef dout, featurelab::VecRef grad) override;

 private:
  struct LayerCache {
    featurelab::Mat x_in, xhat1, u1, Q, K, V, P, O, x_mid, xhat2, u2, h1, g;
    featurelab::Vec rstd1, rstd2;
  };
  featurelab::MatMap grad_of(featurelab::VecRef grad, const std::string& name);
  void read_tokens(featurelab::ConstMatRef X);

  featurelab::Index layers_, heads_, width_, head_width_, mlp_, vocab_, length_, classes_;
  bool causal_;
  std::vector<int> tokens_;  // n·T token ids of the last forward
  std::vector<LayerCache> cache_;
  featurelab::Mat x_, last_, xhatf_, uf_, dX_, dmid_, dU_, dQ_, dK_, dV_, dO_, dG_, dS_;
  featurelab::Vec rstdf_;
};

}  // namespace fourier_icl
