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
// "vocab"). Forward and backward are products over the n·T token rows of a shard of the batch (two shards from 16
// samples, on the job's threads), plus one T×T softmax block per (sample, head); every buffer is the model's and
// reused. The products whose output is whole vector strips wide (widths 64 and 128 here) run as the SDK's
// register-tiled products (featurelab/tiled_products.hpp), the others as Eigen's.
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
  const featurelab::Mat& attention(featurelab::Index l) const { return passes_[0].cache[static_cast<std::size_t>(l)].P; }
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
  // Everything one pass over a shard of the batch writes: its tokens, the caches its backward pass reads, and its
  // scratch. Every buffer keeps its storage from step to step, so a step allocates nothing.
  struct Pass {
    featurelab::Index n = 0, T = 0;  // samples, tokens per sample
    std::vector<int> tokens;         // n·T token ids
    std::vector<int> positions;      // and their positions
    featurelab::Mat rope_cos, rope_sin, rope_tmp;  // gathered by the rows' positions
    std::vector<LayerCache> cache;
    featurelab::Mat x, last, xhatf, uf, dlast, dX, dmid, dU, dO, dG, dS;
    featurelab::Mat dQKV;  // [dQ dK dV] side by side (n·T × 3Ha): dU = [dQ dK dV]·[W_q W_k W_v]ᵀ is one product
    featurelab::Vec rstdf;
    // One value per row, one buffer per size: LayerNorm's means over the n·T rows and over the n last rows, and the
    // softmax backward's Σ_j dP_ij P_ij over a head's T rows.
    featurelab::Vec row_mean, row_mean_dx, last_mean, last_mean_dx, softmax_inner;
  };
  void read_tokens(featurelab::ConstMatRef X, featurelab::Index first, Pass& pass);
  void run(Pass& pass, featurelab::Index score_layer, featurelab::MatRef out);
  void backward_pass(Pass& pass, featurelab::ConstMatRef dout, featurelab::VecRef grad);
  using StridedMatRef = Eigen::Ref<featurelab::Mat, 0, Eigen::OuterStride<>>;
  void rotate(Pass& pass, StridedMatRef M, featurelab::Scalar sign);
  void transpose_weights();

  featurelab::Index layers_, heads_, width_, head_width_, mlp_, vocab_, length_, classes_;
  bool score_rows_ = false;     // run_score_rows: every query row's scores, not the last one's
  const std::vector<unsigned char>* keep_ = nullptr;  // run_evicted's mask of the last row, else none
  bool causal_, rope_;
  featurelab::Mat rope_cos_table_, rope_sin_table_;  // length × a/2
  featurelab::BlockHandle embed_, pos_, lnf_g_, lnf_b_, out_, bout_;  // pos_ empty with rope
  std::vector<LayerBlocks> layer_blocks_;
  // The weights the backward pass multiplies by transposed, copied transposed once per backward() for the
  // register-tiled products (which read their right operand row by row): W_2ᵀ, W_1ᵀ, W_oᵀ, and [W_q W_k W_v]ᵀ.
  struct TransposedWeights {
    featurelab::Mat w2, w1, wo, wqkv;
  };
  std::vector<TransposedWeights> transposed_;
  // forward() splits its batch into shards fixed by the batch size alone (kShards from 2·kShardMin samples), each a
  // pass of its own on one of the job's threads, and backward() adds the shards' gradients in shard order: the same
  // bits on any number of threads. The GemFilter runs use passes_[0] alone.
  static constexpr featurelab::Index kShards = 2, kShardMin = 8;
  std::vector<Pass> passes_;
  featurelab::Index shards_ = 1;       // of the last forward()
  std::vector<featurelab::Vec> shard_grad_;  // shards 1 … kShards − 1's gradients
};

}  // namespace featurelab::fourier_icl_pack
