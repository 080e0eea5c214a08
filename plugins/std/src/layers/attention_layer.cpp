// Multi-head attention: the q/k/v/o projections as products over all n·T token rows (tiled_linear.hpp: register-tiled
// over fixed blocks), one T×T score block per (sample, head) over fixed chunks of the samples: the same bits on any
// number of threads.
#include "attention_layer.hpp"

#include "tiled_linear.hpp"

#include <featurelab/block_products.hpp>
#include <featurelab/error.hpp>
#include <featurelab/threads.hpp>

#include <cmath>
#include <string>

namespace featurelab::std_pack {

namespace {

// The tape's buffers: the forward pass's (read by the backward pass) and the backward pass's scratch.
enum Buffer : std::size_t { kQ, kK, kV, kP, kO, kdO, kdQKV, kdS, kWoT, kWinT };  // kWoT, kWinT: W_o ᵀ, W_q,k,v ᵀ

}  // namespace

Schema AttentionLayer::schema() {
  Schema s;
  s.integer("heads", 1, "H: attention heads").min(1);
  s.integer("head_width", Automatic{"d/H: the input's width over the heads"},
            "a: each head's query/key/value width (H·a must be the input's width d)")
      .min(1);
  s.boolean("causal", true, "mask the scores of later tokens (a decoder: token t reads tokens 0 … t)");
  s.choice("positions", "none", {"none", "rope"},
           "none: the scores see no positions (give them with embedding's positions = \"learned\"); rope: rotary "
           "positions on every head's queries and keys (half-split pairs)");
  s.real("rope_base", 10000, "RoPE's base: pair i of a head rotates by position·base^(−2i/a)").min(2);
  s.boolean("bias", true, "biases b_q, b_k, b_v, b_o (the transformer's; PyTorch's nn.MultiheadAttention's)");
  return s;
}

// The contract test's sequence of tokens of width 4: two heads of 2, rotated.
std::map<std::string, Value> AttentionLayer::test_params() {
  return {{"heads", std::int64_t(2)}, {"positions", std::string("rope")}};
}

AttentionLayer::AttentionLayer(const Params& params, Context&)
    : heads_(params.integer("heads")),
      requested_head_width_(params.integer_or_auto("head_width")),
      causal_(params.boolean("causal")),
      rope_(params.str("positions") == "rope"),
      bias_(params.boolean("bias")),
      rope_base_(params.real("rope_base")) {}

LayerShape AttentionLayer::build(const LayerShape& in, LayerBuilder& builder) {
  if (!in.is_sequence()) {
    throw Error("attention runs over a sequence {T, d} of tokens, not " + in.describe() +
                "; start the network with an embedding layer (token ids), or use data of shape {P, d} (patches)");
  }
  tokens_ = in.dims[0];
  width_ = in.dims[1];
  const std::string widths = "the input's width d = " + std::to_string(width_);
  if (requested_head_width_) {
    head_width_ = *requested_head_width_;
    if (heads_ * head_width_ != width_) {
      throw Error(widths + " is not heads × head_width = " + std::to_string(heads_) + " × " +
                  std::to_string(head_width_) + " = " + std::to_string(heads_ * head_width_) +
                  "; the heads' outputs are concatenated back to width d: set head_width = d/heads, or leave it out");
    }
  } else {
    if (width_ % heads_ != 0) {
      throw Error(widths + " does not split into heads = " + std::to_string(heads_) +
                  " heads of equal width (head_width = d/heads); use a number of heads that divides d");
    }
    head_width_ = width_ / heads_;
  }
  if (rope_ && head_width_ % 2 != 0) {
    throw Error("positions = \"rope\" rotates pairs of query/key coordinates; head_width = " +
                std::to_string(head_width_) + " is odd, make it even");
  }
  const Index HA = heads_ * head_width_;
  wq_ = builder.declare("wq", width_, HA, true);
  wk_ = builder.declare("wk", width_, HA, true);
  wv_ = builder.declare("wv", width_, HA, true);
  if (bias_) {
    bq_ = builder.declare("bq", 1, HA, true);
    bk_ = builder.declare("bk", 1, HA, true);
    bv_ = builder.declare("bv", 1, HA, true);
  }
  wo_ = builder.declare("wo", HA, width_, true);
  if (bias_) bo_ = builder.declare("bo", 1, width_, true);
  if (rope_) {
    // cos/sin of position·base^(−2i/a) for every position and pair i, in double as the transformer's.
    const Index half = head_width_ / 2;
    rope_cos_.resize(tokens_, half);
    rope_sin_.resize(tokens_, half);
    for (Index t = 0; t < tokens_; ++t) {
      for (Index i = 0; i < half; ++i) {
        const double angle = static_cast<double>(t) *
                             std::pow(rope_base_, -2.0 * static_cast<double>(i) / static_cast<double>(head_width_));
        rope_cos_(t, i) = static_cast<Scalar>(std::cos(angle));
        rope_sin_(t, i) = static_cast<Scalar>(std::sin(angle));
      }
    }
  }
  return in;
}

void AttentionLayer::init(const LayerWeights& weights, Rng& rng) {
  // PyTorch's nn.Linear: weight and bias U(±1/√fan_in).
  const double in_bound = 1 / std::sqrt(static_cast<double>(width_));
  const double out_bound = 1 / std::sqrt(static_cast<double>(heads_ * head_width_));
  for (LayerBlock b : {wq_, wk_, wv_, bq_, bk_, bv_}) {
    if (b) rng.fill_uniform(weights.value(b), -in_bound, in_bound);
  }
  rng.fill_uniform(weights.value(wo_), -out_bound, out_bound);
  if (bo_) rng.fill_uniform(weights.value(bo_), -out_bound, out_bound);
}

void AttentionLayer::rotate(StridedMatRef M, Scalar sign) const {
  const Index half = head_width_ / 2;
  parallel_over_chunks(M.rows(), [&](Index, Index first, Index last) {
    for (Index r = first; r < last; ++r) {
      const auto c = rope_cos_.row(r % tokens_).array();
      const auto s = (sign * rope_sin_.row(r % tokens_).array());
      for (Index h = 0; h < heads_; ++h) {
        auto x1 = M.row(r).segment(h * head_width_, half).array();
        auto x2 = M.row(r).segment(h * head_width_ + half, half).array();
        for (Index i = 0; i < half; ++i) {
          const Scalar a = x1(i), b = x2(i);
          x1(i) = a * c(i) - b * s(i);
          x2(i) = a * s(i) + b * c(i);
        }
      }
    }
  }, M.rows() * heads_ * head_width_);
}

void AttentionLayer::forward(const LayerWeights& weights, ConstMatRef in, MatRef out, LayerTape& tape) const {
  const Index n = in.rows(), T = tokens_, N = n * T, A = head_width_, HA = heads_ * A;
  const Scalar inv_sqrt_a = static_cast<Scalar>(1 / std::sqrt(static_cast<double>(A)));
  // A sequence's n×(T·d) rows are the (n·T)×d token rows, row-major: the same memory.
  ConstMatMap X(in.data(), N, width_);
  MatMap Y(out.data(), N, width_);
  Mat& Q = tape.buffer(kQ, N, HA);
  Mat& K = tape.buffer(kK, N, HA);
  Mat& V = tape.buffer(kV, N, HA);
  Mat& P = tape.buffer(kP, n * heads_ * T, T);
  Mat& O = tape.buffer(kO, N, HA);
  tiled_linear::times(Q, X, weights(wq_));
  tiled_linear::times(K, X, weights(wk_));
  tiled_linear::times(V, X, weights(wv_));
  if (bias_) {
    Q.rowwise() += weights(bq_).row(0);
    K.rowwise() += weights(bk_).row(0);
    V.rowwise() += weights(bv_).row(0);
  }
  if (rope_) {
    rotate(Q, 1);
    rotate(K, 1);
  }
  parallel_over_chunks(n, [&](Index, Index first, Index last) {
    for (Index s = first; s < last; ++s) {
      for (Index h = 0; h < heads_; ++h) {
        auto S = P.middleRows((s * heads_ + h) * T, T);
        block_products::times<false>(S, Q.block(s * T, h * A, T, A), K.block(s * T, h * A, T, A).transpose());
        S *= inv_sqrt_a;
        for (Index i = 0; i < T; ++i) {
          const Index visible = causal_ ? i + 1 : T;
          auto row = S.row(i).head(visible);
          const Scalar top = row.maxCoeff();
          row = (row.array() - top).exp().matrix();
          row /= row.sum();
          S.row(i).tail(T - visible).setZero();
        }
        block_products::times<false>(O.block(s * T, h * A, T, A), S, V.block(s * T, h * A, T, A));
      }
    }
  }, Q.size() + K.size() + V.size() + P.size());
  tiled_linear::times(Y, O, weights(wo_));
  if (bias_) Y.rowwise() += weights(bo_).row(0);
}

void AttentionLayer::backward(const LayerPass& pass, ConstMatRef dout, LayerGrads& grads) const {
  const bool params = grads.trains(wq_);
  if (!params && !pass.want_din) return;
  const Index n = pass.in.rows(), T = tokens_, N = n * T, A = head_width_, HA = heads_ * A;
  const Scalar inv_sqrt_a = static_cast<Scalar>(1 / std::sqrt(static_cast<double>(A)));
  ConstMatMap X(pass.in.data(), N, width_);
  ConstMatMap G(dout.data(), N, width_);
  LayerTape& tape = pass.tape;
  // The backward pass's scratch, then what the forward pass kept.
  Mat& dS_chunks = tape.buffer(kdS, parallel_chunks * T, T);  // chunk c's dP/dS block: rows c·T … c·T + T − 1
  Mat& dQKV = tape.buffer(kdQKV, N, 3 * HA);                    // [dQ dK dV], each N × H·a
  Mat& dO = tape.buffer(kdO, N, HA);
  const Mat& Q = tape.buffers[kQ];
  const Mat& K = tape.buffers[kK];
  const Mat& V = tape.buffers[kV];
  const Mat& P = tape.buffers[kP];
  const Mat& O = tape.buffers[kO];
  const LayerWeights& w = pass.weights;
  // y = O W_o + b_o
  if (params) {
    tiled_linear::weight_gradient(grads(wo_), O, G);
    if (bias_) grads(bo_).row(0) = G.colwise().sum();
  }
  tiled_linear::times_transposed(dO, G, w(wo_), tape.buffer(kWoT, width_, HA));
  auto dQ = dQKV.leftCols(HA);
  auto dK = dQKV.middleCols(HA, HA);
  auto dV = dQKV.rightCols(HA);
  // O_h = P_h V_h, P_h = softmax(S_h), S_h = Q_h K_hᵀ/√a: dV_h = P_hᵀ dO_h, dP_h = dO_h V_hᵀ,
  // dS_h = P_h ⊙ (dP_h − rowsum(dP_h ⊙ P_h)) (masked entries have P = 0), dQ_h = dS_h K_h/√a, dK_h = dS_hᵀ Q_h/√a.
  parallel_over_chunks(n, [&](Index chunk, Index first, Index last) {
    auto dS = dS_chunks.middleRows(chunk * T, T);
    for (Index s = first; s < last; ++s) {
      for (Index h = 0; h < heads_; ++h) {
        const auto Ph = P.middleRows((s * heads_ + h) * T, T);
        const auto dOh = dO.block(s * T, h * A, T, A);
        block_products::times<false>(dV.block(s * T, h * A, T, A), Ph.transpose(), dOh);
        block_products::times<false>(dS, dOh, V.block(s * T, h * A, T, A).transpose());
        for (Index i = 0; i < T; ++i) {
          const Scalar inner = dS.row(i).dot(Ph.row(i));
          dS.row(i).array() = (Ph.row(i).array() * (dS.row(i).array() - inner)) * inv_sqrt_a;
        }
        block_products::times<false>(dQ.block(s * T, h * A, T, A), dS, K.block(s * T, h * A, T, A));
        block_products::times<false>(dK.block(s * T, h * A, T, A), dS.transpose(), Q.block(s * T, h * A, T, A));
      }
    }
  }, 3 * dO.size() + 2 * P.size());
  if (rope_) {  // back through the rotation: its inverse
    rotate(dQ, -1);
    rotate(dK, -1);
  }
  if (params) {
    tiled_linear::weight_gradient(grads(wq_), X, dQ);
    tiled_linear::weight_gradient(grads(wk_), X, dK);
    tiled_linear::weight_gradient(grads(wv_), X, dV);
    if (bias_) {
      grads(bq_).row(0) = dQ.colwise().sum();
      grads(bk_).row(0) = dK.colwise().sum();
      grads(bv_).row(0) = dV.colwise().sum();
    }
  }
  if (pass.want_din) {
    MatMap dX(pass.din.data(), N, width_);
    Mat& Wt = tape.buffer(kWinT, HA, width_);
    tiled_linear::times_transposed(dX, dQ, w(wq_), Wt);
    tiled_linear::times_transposed(dX, dK, w(wk_), Wt, true);
    tiled_linear::times_transposed(dX, dV, w(wv_), Wt, true);
  }
}

}  // namespace featurelab::std_pack
