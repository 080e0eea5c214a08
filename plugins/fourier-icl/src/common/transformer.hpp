// Model `transformer` (Shi 2024 ch. 4, §4.5 and Figs. 4.3–4.4; the architecture of the grokking code base the
// chapter builds on, github.com/Sea-Snell/grokking, as we read it: the chapter states only heads, width and
// layers): a decoder over token sequences, read out at the last position.
//   x⁰_t = √D·E[token_t] + P_t                                  (token and learned positional embeddings)
//   per layer:  x ← x + MHA(LN(x)),   x ← x + W_2 GELU(W_1 LN(x) + b_1) + b_2      (pre-norm blocks)
//     MHA(u) = concat_h(softmax(Q_h K_hᵀ/√a + causal mask) V_h) W_o + b_o,  Q = uW_q + b_q, K, V likewise (H heads
//     of width a)
//   logits = LN_f(x_T) W_out + b_out
// positions = "rope" drops P and rotates every head's queries and keys by their positions instead (RoPE, half-split
// pairs, as the LLMs of ch. 9), so the model runs on shorter or re-indexed sequences (GemFilter's second pass).
// GELU is the exact erf form; no dropout (the chapter does not say whether it kept the code base's 0.1). Init as
// PyTorch's defaults: linear weights and biases U(±1/√fan_in), embeddings N(0, 1), LayerNorm γ = 1, β = 0.
// Inputs are token ids (one per column, as floats; the vocabulary size from `vocab` or the distribution's feature
// "vocab"). Forward and backward are whole-batch GEMMs over the n·T token rows, plus one T×T softmax block per
// (sample, head); every buffer is the model's and reused.
// Blocks: embed (V×D), pos (T×D; learned positions only), l<i>.{ln1_g, ln1_b, wq, bq, wk, bk, wv, bv, wo, bo, ln2_g, ln2_b, w1, b1, w2, b2},
// lnf_g, lnf_b, out (D×C), bout, and the frozen attention_shape = [H, a] that probes read.
#pragma once

#include "contract_setups.hpp"

#include <featurelab/model.hpp>

#include <vector>

namespace featurelab::fourier_icl_pack {

class Transformer : public featurelab::Model {
 public:
  static constexpr featurelab::Doc kDoc =
      "Pre-norm decoder transformer over token ids (embeddings ×√D + learned positions, L blocks of H-head causal "
      "softmax attention and a GELU MLP, final LayerNorm, readout at the last token); batched forward and backward.";
  static featurelab::Schema schema();
  static std::map<std::string, featurelab::Value> test_params() { return small_transformer_params(); }
  static featurelab::ContractData contract_data() { return modular_transformer_contract(); }
  Transformer(const featurelab::Params& params, featurelab::Context& context);
  featurelab::Index outputs() const override { return classes_; }
  void init(featurelab::Rng& rng) override;
  void forward(featurelab::ConstMatRef X, featurelab::MatRef out) override;
  void backward(featurelab::ConstMatRef X, featurelab::ConstMatRef dout, featurelab::VecRef grad) override;

  // GemFilter (ch. 9) runs the model on token sequences of its own: n sequences of T <= the trained length, row-major
  // token ids and the position each token takes (fresh 0 … T−1, or the original ones). With score_layer = r >= 0 it
  // stops at block r's attention and writes the raw selection scores Σ_h q_h[T−1]·k_h[t] into out (n × T);
  // otherwise out gets the logits (n × classes). The caches are reused: backward() is for forward()'s batch only.
  void run_tokens(const std::vector<int>& tokens, const std::vector<int>& positions, featurelab::Index n, featurelab::Index T,
                  featurelab::Index score_layer, featurelab::MatRef out);
  // Block r's raw scores Σ_h Q_h K_hᵀ for every query row (out: n·T × T; row s·T + i is query i of sample s, the keys
  // after i, which causal attention never reads, set to −∞): the rows App. G.4.4's ablation selects by.
  void run_score_rows(const std::vector<int>& tokens, const std::vector<int>& positions, featurelab::Index n, featurelab::Index T,
                      featurelab::Index score_layer, featurelab::Mat& out);
  // KV-cache eviction (ch. 9: App. G.4.5's GemFilter-One-Run; the SnapKV and H2O baselines): ONE run over the whole
  // prompt (positions 0 … T−1) in which the last position — the step that answers, as the decoding step after an
  // evicted prompt cache would — sees in block l, head h only the keys t < T−1 with
  // keep[((s·L + l)·H + h)·T + t] != 0, and always its own. Every other position attends as in the full run, so the
  // keys and values it reads are the full run's cache at the original positions, never recomputed. With every entry
  // kept this is the full run bit for bit. out: n × classes logits.
  void run_evicted(const std::vector<int>& tokens, featurelab::Index n, featurelab::Index T, const std::vector<unsigned char>& keep,
                   featurelab::MatRef out);
  // Block l's attention probabilities of the last run (n·H·T × T; row (s·H + h)·T + i is query i of sample s in head
  // h, zero after i): what SnapKV's observation window and H2O's accumulated attention read.
  const featurelab::Mat& attention(featurelab::Index l) const { return cache_[static_cast<std::size_t>(l)].P; }
  featurelab::Index layers() const { return layers_; }
  featurelab::Index heads() const { return heads_; }
  featurelab::Index head_width() const { return head_width_; }
  featurelab::Index width() const { return width_; }
  featurelab::Index mlp_width() const { return mlp_; }
  featurelab::Index length() const { return length_; }
  bool rope() const { return rope_; }

 private:
  // One decoder block's parameters ("l0.wq", ...), in declaration order.
  struct LayerBlocks {
    featurelab::BlockHandle ln1_g, ln1_b, wq, wk, wv, bq, bk, bv, wo, bo, ln2_g, ln2_b, w1, b1, w2, b2;
  };
  struct LayerCache {
    featurelab::Mat x_in, xhat1, u1, Q, K, V, P, O, x_mid, xhat2, u2, h1, cdf, g;
    featurelab::Vec rstd1, rstd2;
  };
  void read_tokens(featurelab::ConstMatRef X);
  void run(featurelab::Index n, featurelab::Index T, featurelab::Index score_layer, featurelab::MatRef out);
  void rotate(featurelab::Mat& M, featurelab::Scalar sign);

  featurelab::Index layers_, heads_, width_, head_width_, mlp_, vocab_, length_, classes_;
  featurelab::Index seq_ = 0;  // T of the last run
  bool score_rows_ = false;     // run_score_rows: every query row's scores, not the last one's
  const std::vector<unsigned char>* keep_ = nullptr;  // run_evicted's mask of the last row, else none
  bool causal_, rope_;
  std::vector<int> tokens_;     // n·T token ids of the last run
  std::vector<int> positions_;  // and their positions
  featurelab::Mat rope_cos_table_, rope_sin_table_;  // length × a/2
  featurelab::Mat rope_cos_, rope_sin_, rope_tmp_;   // gathered by the rows' positions
  featurelab::BlockHandle embed_, pos_, lnf_g_, lnf_b_, out_, bout_;  // pos_ empty with rope
  std::vector<LayerBlocks> layer_blocks_;
  std::vector<LayerCache> cache_;
  featurelab::Mat x_, last_, xhatf_, uf_, dlast_, dX_, dmid_, dU_, dQ_, dK_, dV_, dO_, dG_, dS_;
  featurelab::Vec rstdf_;
  // Scratch of one value per row, one buffer per size so that no step reallocates: LayerNorm's means over the n·T
  // rows and over the n last rows, and the softmax backward's Σ_j dP_ij P_ij over a head's T rows.
  featurelab::Vec row_mean_, row_mean_dx_, last_mean_, last_mean_dx_, softmax_inner_;
};

}  // namespace featurelab::fourier_icl_pack
