// Forward and backward over the n·T token rows as GEMMs; attention as one T×T block per (sample, head).
#include "transformer.hpp"

#include <featurelab/block_products.hpp>
#include <featurelab/error.hpp>
#include <featurelab/threads.hpp>
#include <featurelab/tiled_products.hpp>

#include <unsupported/Eigen/SpecialFunctions>

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

namespace featurelab::fourier_icl_pack {

namespace {

constexpr double kEps = 1e-5;  // LayerNorm ε (PyTorch's default)

std::string layer_name(Index l, const char* what) { return "l" + std::to_string(l) + "." + what; }

// y = xhat ⊙ γ + β with xhat = (x − mean)/√(var + ε), row by row. `mean` is scratch (x.rows()), so a step
// allocates nothing once the buffers have their sizes.
void layer_norm(const Mat& x, const ConstMatMap& g, const ConstMatMap& b, Mat& xhat, Vec& rstd, Mat& y, Vec& mean) {
  mean = x.rowwise().mean();
  xhat = x.colwise() - mean;
  rstd = ((xhat.array().square().rowwise().mean() + static_cast<Scalar>(kEps)).rsqrt()).matrix();
  xhat.array().colwise() *= rstd.array();
  y = (xhat.array().rowwise() * g.row(0).array()).rowwise() + b.row(0).array();
}

// dx (written) from dy; gγ, gβ (accumulated into the gradient blocks). mean_d, mean_dx: scratch (dy.rows()).
void layer_norm_backward(const Mat& dy, const Mat& xhat, const Vec& rstd, const ConstMatMap& g, MatMap gg, MatMap gb, Mat& dx,
                         Vec& mean_d, Vec& mean_dx) {
  gg.row(0) += (dy.array() * xhat.array()).colwise().sum().matrix();
  gb.row(0) += dy.colwise().sum();
  dx = (dy.array().rowwise() * g.row(0).array()).matrix();  // dxhat
  mean_d = dx.rowwise().mean();
  mean_dx = (dx.array() * xhat.array()).rowwise().mean();
  dx = ((dx.colwise() - mean_d).array() - xhat.array().colwise() * mean_dx.array()).colwise() * rstd.array();
}


// Z (+)= X·W for row-major operands (any row strides; Z already rows × W.cols()). Register-tiled where Z's rows are
// whole vector strips, each output then one sum over k ascending; Eigen's product otherwise. Either way the bits
// depend on the shapes alone.
template <class X, class W, class Z>
void multiply(const X& x, const W& w, Z&& z, bool accumulate) {
  if (tiled_products::fits_strips(w.cols())) {
    if (accumulate) {
      tiled_products::times<true>(x.data(), x.outerStride(), x.rows(), x.cols(), w.data(), w.outerStride(), z.data(), z.outerStride(), w.cols());
    } else {
      tiled_products::times<false>(x.data(), x.outerStride(), x.rows(), x.cols(), w.data(), w.outerStride(), z.data(), z.outerStride(), w.cols());
    }
  } else if (accumulate) {
    z.noalias() += x * w;
  } else {
    z.noalias() = x * w;
  }
}

// ∇W += Xᵀ·G (X rows × dim, G rows × cols, ∇W dim × cols): a weight's gradient, summed over the token rows.
template <class X, class G, class D>
void add_transpose_multiply(const X& x, const G& g, D&& dw) {
  if (tiled_products::fits_strips(g.cols())) {
    tiled_products::add_transpose_times(x.data(), x.outerStride(), x.rows(), x.cols(), g.data(), g.outerStride(), dw.data(), dw.outerStride(),
                                        g.cols());
  } else {
    dw.noalias() += x.transpose() * g;
  }
}

}  // namespace

Schema Transformer::schema() {
  Schema s;
  s.integer("layers", 1, "decoder blocks").range(1, 8);
  s.integer("heads", 4, "attention heads per block").min(1);
  s.integer("width", 128, "D: the residual stream's width").min(1);
  s.integer("head_width", 32, "a: each head's query/key/value width").min(1);
  s.integer("mlp", 512, "the MLP's hidden width").min(1);
  s.integer("vocab", Automatic{"the distribution's feature \"vocab\""}, "token ids are in [0, vocab)").min(1);
  s.boolean("causal", true, "mask attention to later positions (the code base's decoder)");
  s.choice("positions", "learned", {"learned", "rope"},
           "learned: a trained position embedding added to the tokens (the grokking code base); rope: rotary "
           "positions on every head's queries and keys (the LLMs GemFilter runs on), so any shorter sequence and any "
           "re-indexing of positions is valid");
  s.real("rope_base", 10000, "RoPE's base: pair i of a head rotates by position·base^(−2i/a)").min(2);
  return s;
}

Transformer::Transformer(const Params& params, Context& context)
    : layers_(params.integer("layers")),
      heads_(params.integer("heads")),
      width_(params.integer("width")),
      head_width_(params.integer("head_width")),
      mlp_(params.integer("mlp")),
      vocab_(0),
      length_(context.data.dim),
      classes_(context.data.classes),
      causal_(params.boolean("causal")),
      rope_(params.str("positions") == "rope") {
  if (rope_ && head_width_ % 2 != 0) {
    throw Error("transformer: positions = \"rope\" rotates pairs of query/key coordinates; head_width = " +
                std::to_string(head_width_) + " is odd, make it even");
  }
  if (const auto vocab = params.integer_or_auto("vocab")) {
    vocab_ = *vocab;
  } else {
    vocab_ = static_cast<Index>(require_feature(context.features, context.name, "vocab",
                                                "set vocab, or use a distribution that declares its token vocabulary "
                                                "(modular-sum with encoding = \"tokens\")",
                                                1, 1)(0, 0));
  }
  if (classes_ < 2 || length_ < 1) throw Error("transformer: the data needs token sequences and at least 2 classes");
  const Index D = width_, HA = heads_ * head_width_;
  embed_ = declare_block("embed", vocab_, D, true);
  if (!rope_) pos_ = declare_block("pos", length_, D, true);
  for (Index l = 0; l < layers_; ++l) {
    LayerBlocks b;
    b.ln1_g = declare_block(layer_name(l, "ln1_g"), 1, D, true);
    b.ln1_b = declare_block(layer_name(l, "ln1_b"), 1, D, true);
    b.wq = declare_block(layer_name(l, "wq"), D, HA, true);
    b.wk = declare_block(layer_name(l, "wk"), D, HA, true);
    b.wv = declare_block(layer_name(l, "wv"), D, HA, true);
    b.bq = declare_block(layer_name(l, "bq"), 1, HA, true);
    b.bk = declare_block(layer_name(l, "bk"), 1, HA, true);
    b.bv = declare_block(layer_name(l, "bv"), 1, HA, true);
    b.wo = declare_block(layer_name(l, "wo"), HA, D, true);
    b.bo = declare_block(layer_name(l, "bo"), 1, D, true);
    b.ln2_g = declare_block(layer_name(l, "ln2_g"), 1, D, true);
    b.ln2_b = declare_block(layer_name(l, "ln2_b"), 1, D, true);
    b.w1 = declare_block(layer_name(l, "w1"), D, mlp_, true);
    b.b1 = declare_block(layer_name(l, "b1"), 1, mlp_, true);
    b.w2 = declare_block(layer_name(l, "w2"), mlp_, D, true);
    b.b2 = declare_block(layer_name(l, "b2"), 1, D, true);
    layer_blocks_.push_back(b);
  }
  lnf_g_ = declare_block("lnf_g", 1, D, true);
  lnf_b_ = declare_block("lnf_b", 1, D, true);
  out_ = declare_block("out", D, classes_, true);
  bout_ = declare_block("bout", 1, classes_, true);
  declare_block("attention_shape", 1, 2, false);  // [heads, head width] for probes; never trained
  allocate_parameters();
  passes_.resize(static_cast<std::size_t>(kShards));
  for (Pass& pass : passes_) pass.cache.resize(static_cast<std::size_t>(layers_));
  shard_grad_.resize(static_cast<std::size_t>(kShards - 1));
  transposed_.resize(static_cast<std::size_t>(layers_));
  if (rope_) {
    // cos/sin of position·base^(−2i/a) for every position the model can see and every pair i.
    const Index half = head_width_ / 2;
    rope_cos_table_.resize(length_, half);
    rope_sin_table_.resize(length_, half);
    for (Index t = 0; t < length_; ++t) {
      for (Index i = 0; i < half; ++i) {
        const double angle = static_cast<double>(t) *
                             std::pow(params.real("rope_base"), -2.0 * static_cast<double>(i) / static_cast<double>(head_width_));
        rope_cos_table_(t, i) = static_cast<Scalar>(std::cos(angle));
        rope_sin_table_(t, i) = static_cast<Scalar>(std::sin(angle));
      }
    }
  }
}

void Transformer::init(Rng& rng) {
  for (const ParamBlock& b : blocks()) {
    MatMap m = block(b.name);
    const std::string& n = b.name;
    if (n == "attention_shape") {
      m << static_cast<Scalar>(heads_), static_cast<Scalar>(head_width_);
    } else if (n == "embed" || n == "pos") {
      rng.fill_normal(m, 1.0);
    } else if (n.find("_g") != std::string::npos) {
      m.setOnes();
    } else if (n.find("_b") != std::string::npos) {
      m.setZero();
    } else {
      // PyTorch's Linear: weight and bias U(±1/√fan_in), fan_in = the weight's input width.
      const std::string kind = n.substr(n.find('.') + 1);  // "wo" of "l0.wo"; "out" stays "out"
      Index fan_in = width_;
      if (kind == "wo" || kind == "bo") fan_in = heads_ * head_width_;
      if (kind == "w2" || kind == "b2") fan_in = mlp_;
      const double bound = 1 / std::sqrt(static_cast<double>(fan_in));
      rng.fill_uniform(m, -bound, bound);
    }
  }
}

// Samples first … first + pass.n − 1 of X into the pass.
void Transformer::read_tokens(ConstMatRef X, Index first, Pass& pass) {
  if (X.cols() != length_) throw Error("transformer: the input has " + std::to_string(X.cols()) + " tokens, expected " + std::to_string(length_));
  pass.T = length_;
  pass.tokens.resize(static_cast<std::size_t>(pass.n * length_));
  pass.positions.resize(pass.tokens.size());
  for (Index i = 0; i < pass.n; ++i) {
    for (Index t = 0; t < length_; ++t) {
      const long id = std::lround(static_cast<double>(X(first + i, t)));
      if (id < 0 || id >= vocab_) {
        throw Error("transformer: token " + std::to_string(id) + " at position " + std::to_string(t) + " is outside the vocabulary [0, " +
                    std::to_string(vocab_) + ")");
      }
      pass.tokens[static_cast<std::size_t>(i * length_ + t)] = static_cast<int>(id);
      pass.positions[static_cast<std::size_t>(i * length_ + t)] = static_cast<int>(t);
    }
  }
}

namespace {

// f(item) for every item of [0, count), e.g. a shard, on up to job_threads() threads (f must not throw: the passes'
// buffers are sized inside, and Eigen's allocations are the only thing that could).
template <class F>
void on_threads(Index count, F&& f) {
  const int threads = static_cast<int>(std::min<Index>(job_threads(), count));
  if (threads <= 1) {
    for (Index s = 0; s < count; ++s) f(s);
    return;
  }
#pragma omp parallel for num_threads(threads) schedule(static, 1)
  for (Index s = 0; s < count; ++s) f(s);
}

}  // namespace

void Transformer::forward(ConstMatRef X, MatRef out) {
  const Index n = X.rows();
  shards_ = n >= kShards * kShardMin ? kShards : 1;
  for (Index s = 0; s < shards_; ++s) {  // tokens first: a bad token id throws here, outside the threads
    Pass& pass = passes_[static_cast<std::size_t>(s)];
    pass.n = n * (s + 1) / shards_ - n * s / shards_;
    read_tokens(X, n * s / shards_, pass);
  }
  on_threads(shards_, [&](Index s) { run(passes_[static_cast<std::size_t>(s)], -1, out.middleRows(n * s / shards_, passes_[static_cast<std::size_t>(s)].n)); });
}

void Transformer::run_tokens(const std::vector<int>& tokens, const std::vector<int>& positions, Index n, Index T, Index score_layer,
                             MatRef out) {
  if (T < 1 || T > length_ || static_cast<Index>(tokens.size()) != n * T || positions.size() != tokens.size()) {
    throw Error("transformer: run_tokens needs n·T tokens and positions with 1 <= T <= " + std::to_string(length_));
  }
  for (std::size_t r = 0; r < tokens.size(); ++r) {
    if (tokens[r] < 0 || tokens[r] >= vocab_ || positions[r] < 0 || positions[r] >= length_) {
      throw Error("transformer: run_tokens got token " + std::to_string(tokens[r]) + " at position " + std::to_string(positions[r]) +
                  ", outside the vocabulary or the trained length");
    }
  }
  Pass& pass = passes_[0];
  pass.n = n;
  pass.T = T;
  pass.tokens = tokens;
  pass.positions = positions;
  shards_ = 1;
  run(pass, score_layer, out);
}

void Transformer::run_score_rows(const std::vector<int>& tokens, const std::vector<int>& positions, Index n, Index T, Index score_layer,
                                 Mat& out) {
  if (score_layer < 0 || score_layer >= layers_) throw Error("transformer: run_score_rows needs a block 0 … layers − 1");
  out.resize(n * T, T);
  score_rows_ = true;
  try {
    run_tokens(tokens, positions, n, T, score_layer, out);
  } catch (...) {
    score_rows_ = false;
    throw;
  }
  score_rows_ = false;
}

void Transformer::run_evicted(const std::vector<int>& tokens, Index n, Index T, const std::vector<unsigned char>& keep, MatRef out) {
  if (static_cast<Index>(keep.size()) != n * layers_ * heads_ * T) {
    throw Error("transformer: run_evicted needs one keep flag per (sample, block, head, position): n·L·H·T = " +
                std::to_string(n * layers_ * heads_ * T) + ", got " + std::to_string(keep.size()));
  }
  std::vector<int> positions(tokens.size());
  for (std::size_t r = 0; r < positions.size(); ++r) positions[r] = static_cast<int>(static_cast<Index>(r) % T);
  keep_ = &keep;
  try {
    run_tokens(tokens, positions, n, T, -1, out);
  } catch (...) {
    keep_ = nullptr;
    throw;
  }
  keep_ = nullptr;
}

// Rotates every head's (first half, second half) coordinate pairs of Q or K by the rows' positions; sign −1 applies
// the inverse rotation (the backward pass).
void Transformer::rotate(Pass& pass, StridedMatRef M, Scalar sign) {
  const Index half = head_width_ / 2;
  for (Index h = 0; h < heads_; ++h) {
    auto first = M.middleCols(h * head_width_, half);
    auto second = M.middleCols(h * head_width_ + half, half);
    pass.rope_tmp = first;
    first.array() = first.array() * pass.rope_cos.array() - sign * second.array() * pass.rope_sin.array();
    second.array() = sign * pass.rope_tmp.array() * pass.rope_sin.array() + second.array() * pass.rope_cos.array();
  }
}

void Transformer::run(Pass& pass, Index score_layer, MatRef out) {
  const Index n = pass.n, T = pass.T;
  const Index N = n * T, A = head_width_;
  const Scalar scale = static_cast<Scalar>(std::sqrt(static_cast<double>(width_)));
  const Scalar inv_sqrt_a = static_cast<Scalar>(1 / std::sqrt(static_cast<double>(A)));
  const ConstMatMap E = cblock(embed_);
  pass.x.resize(N, width_);
  if (rope_) {
    pass.rope_cos.resize(N, A / 2);
    pass.rope_sin.resize(N, A / 2);
    for (Index r = 0; r < N; ++r) {
      const Index t = pass.positions[static_cast<std::size_t>(r)];
      pass.x.row(r) = scale * E.row(pass.tokens[static_cast<std::size_t>(r)]);
      pass.rope_cos.row(r) = rope_cos_table_.row(t);
      pass.rope_sin.row(r) = rope_sin_table_.row(t);
    }
  } else {
    const ConstMatMap Pos = cblock(pos_);
    for (Index r = 0; r < N; ++r) pass.x.row(r) = scale * E.row(pass.tokens[static_cast<std::size_t>(r)]) + Pos.row(pass.positions[static_cast<std::size_t>(r)]);
  }
  for (Index l = 0; l < layers_; ++l) {
    LayerCache& c = pass.cache[static_cast<std::size_t>(l)];
    const LayerBlocks& lb = layer_blocks_[static_cast<std::size_t>(l)];
    c.x_in = pass.x;
    layer_norm(pass.x, cblock(lb.ln1_g), cblock(lb.ln1_b), c.xhat1, c.rstd1, c.u1, pass.row_mean);
    const Index HA = heads_ * A;
    c.Q.resize(N, HA);
    multiply(c.u1, cblock(lb.wq), c.Q, false);
    c.Q.rowwise() += cblock(lb.bq).row(0);
    c.K.resize(N, HA);
    multiply(c.u1, cblock(lb.wk), c.K, false);
    c.K.rowwise() += cblock(lb.bk).row(0);
    if (rope_) {
      rotate(pass, c.Q, 1);
      rotate(pass, c.K, 1);
    }
    if (l == score_layer) {
      // GemFilter's selection scores: the last query row against every key, raw (no 1/√a, no softmax), summed over
      // heads — Σ_h Q_h[T−1] K_hᵀ; or every row's (run_score_rows).
      if (score_rows_) {
        for (Index s = 0; s < n; ++s) {
          auto S = out.middleRows(s * T, T);
          S.setZero();
          for (Index h = 0; h < heads_; ++h) {
            S.noalias() += c.Q.block(s * T, h * A, T, A) * c.K.block(s * T, h * A, T, A).transpose();
          }
          for (Index i = 0; i + 1 < T; ++i) S.row(i).tail(T - 1 - i).setConstant(-std::numeric_limits<Scalar>::infinity());
        }
        return;
      }
      for (Index s = 0; s < n; ++s) {
        out.row(s).head(T).setZero();
        for (Index h = 0; h < heads_; ++h) {
          out.row(s).head(T).noalias() += c.Q.block(s * T + T - 1, h * A, 1, A) * c.K.block(s * T, h * A, T, A).transpose();
        }
      }
      return;
    }
    c.V.resize(N, HA);
    multiply(c.u1, cblock(lb.wv), c.V, false);
    c.V.rowwise() += cblock(lb.bv).row(0);
    c.P.resize(n * heads_ * T, T);
    c.O.resize(N, heads_ * A);
    for (Index s = 0; s < n; ++s) {
      for (Index h = 0; h < heads_; ++h) {
        auto P = c.P.middleRows((s * heads_ + h) * T, T);
        block_products::times<false>(P, c.Q.block(s * T, h * A, T, A), c.K.block(s * T, h * A, T, A).transpose());
        P *= inv_sqrt_a;
        if (keep_ != nullptr) {
          // The evicted cache: the last query reads only the kept keys (and its own); exp(−∞) = 0 below.
          const unsigned char* kept = keep_->data() + ((s * layers_ + l) * heads_ + h) * T;
          for (Index t = 0; t + 1 < T; ++t) {
            if (kept[t] == 0) P(T - 1, t) = -std::numeric_limits<Scalar>::infinity();
          }
        }
        for (Index i = 0; i < T; ++i) {
          const Index visible = causal_ ? i + 1 : T;
          const Scalar top = P.row(i).head(visible).maxCoeff();
          P.row(i).head(visible) = (P.row(i).head(visible).array() - top).exp().matrix();
          P.row(i).head(visible) /= P.row(i).head(visible).sum();
          P.row(i).tail(T - visible).setZero();
        }
        block_products::times<false>(c.O.block(s * T, h * A, T, A), P, c.V.block(s * T, h * A, T, A));
      }
    }
    multiply(c.O, cblock(lb.wo), pass.x, true);
    pass.x.rowwise() += cblock(lb.bo).row(0);
    c.x_mid = pass.x;
    layer_norm(pass.x, cblock(lb.ln2_g), cblock(lb.ln2_b), c.xhat2, c.rstd2, c.u2, pass.row_mean);
    c.h1.resize(N, mlp_);
    multiply(c.u2, cblock(lb.w1), c.h1, false);
    c.h1.rowwise() += cblock(lb.b1).row(0);
    // GELU(h) = h·Φ(h); Φ is kept for the backward pass (Eigen's erf is vectorised for float).
    c.cdf = ((c.h1.array() * static_cast<Scalar>(M_SQRT1_2)).erf() + 1) * Scalar(0.5);
    c.g = c.h1.array() * c.cdf.array();
    multiply(c.g, cblock(lb.w2), pass.x, true);
    pass.x.rowwise() += cblock(lb.b2).row(0);
  }
  // The readout reads the last position of every sample.
  pass.last.resize(n, width_);
  for (Index s = 0; s < n; ++s) pass.last.row(s) = pass.x.row(s * T + T - 1);
  layer_norm(pass.last, cblock(lnf_g_), cblock(lnf_b_), pass.xhatf, pass.rstdf, pass.uf, pass.last_mean);
  out.noalias() = pass.uf * cblock(out_);
  out.rowwise() += cblock(bout_).row(0);
}

void Transformer::transpose_weights() {
  const Index HA = heads_ * head_width_;
  // Four copies per block, each independent of the others: on the job's threads.
  on_threads(4 * layers_, [&](Index item) {
    const Index l = item / 4;
    const LayerBlocks& lb = layer_blocks_[static_cast<std::size_t>(l)];
    TransposedWeights& t = transposed_[static_cast<std::size_t>(l)];
    switch (item % 4) {
      case 0: t.w2 = cblock(lb.w2).transpose(); break;
      case 1: t.w1 = cblock(lb.w1).transpose(); break;
      case 2: t.wo = cblock(lb.wo).transpose(); break;
      default:
        t.wqkv.resize(3 * HA, width_);
        t.wqkv.topRows(HA) = cblock(lb.wq).transpose();
        t.wqkv.middleRows(HA, HA) = cblock(lb.wk).transpose();
        t.wqkv.bottomRows(HA) = cblock(lb.wv).transpose();
    }
  });
}

void Transformer::backward(ConstMatRef X, ConstMatRef dout, VecRef grad) {
  const Index n = X.rows();
  transpose_weights();  // once for all shards, which read them
  if (shards_ == 1) {
    backward_pass(passes_[0], dout, grad);
    return;
  }
  for (Vec& g : shard_grad_) g.resize(grad.size());
  on_threads(shards_, [&](Index s) {
    const Pass& pass = passes_[static_cast<std::size_t>(s)];
    backward_pass(passes_[static_cast<std::size_t>(s)], dout.middleRows(n * s / shards_, pass.n),
                  s == 0 ? grad : VecRef(shard_grad_[static_cast<std::size_t>(s - 1)]));
  });
  // In shard order, whatever thread ran which; each coordinate on its own, so in chunks on the job's threads.
  parallel_over_chunks(grad.size(), [&](Index, Index first, Index last) {
    for (const Vec& g : shard_grad_) grad.segment(first, last - first) += g.segment(first, last - first);
  }, shards_ * grad.size());
}

// One pass's gradient, written over `grad`.
void Transformer::backward_pass(Pass& pass, ConstMatRef dout, VecRef grad) {
  const Index n = pass.n, T = pass.T, N = n * T, A = head_width_;
  const Index HA = heads_ * A;
  const Scalar inv_sqrt_a = static_cast<Scalar>(1 / std::sqrt(static_cast<double>(A)));
  grad.setZero();  // LayerNorm and embedding gradients accumulate
  grad_block(grad, out_).noalias() = pass.uf.transpose() * dout;
  grad_block(grad, bout_).row(0) = dout.colwise().sum();
  pass.dlast.noalias() = dout * cblock(out_).transpose();  // n × D (pass.dU is n·T × D: one buffer per size)
  layer_norm_backward(pass.dlast, pass.xhatf, pass.rstdf, cblock(lnf_g_), grad_block(grad, lnf_g_), grad_block(grad, lnf_b_), pass.last, pass.last_mean,
                      pass.last_mean_dx);
  pass.dX.setZero(N, width_);
  for (Index s = 0; s < n; ++s) pass.dX.row(s * T + T - 1) = pass.last.row(s);
  for (Index l = layers_ - 1; l >= 0; --l) {
    LayerCache& c = pass.cache[static_cast<std::size_t>(l)];
    const LayerBlocks& lb = layer_blocks_[static_cast<std::size_t>(l)];
    // MLP: x_out = x_mid + GELU(h1) W2 + b2.
    const TransposedWeights& t = transposed_[static_cast<std::size_t>(l)];
    add_transpose_multiply(c.g, pass.dX, grad_block(grad, lb.w2));
    grad_block(grad, lb.b2).row(0) = pass.dX.colwise().sum();
    pass.dG.resize(N, mlp_);
    multiply(pass.dX, t.w2, pass.dG, false);
    // GELU'(h) = Φ(h) + h·φ(h)
    pass.dG.array() *= c.cdf.array() + c.h1.array() * (c.h1.array().square() * Scalar(-0.5)).exp() * static_cast<Scalar>(0.5 * M_2_SQRTPI * M_SQRT1_2);
    add_transpose_multiply(c.u2, pass.dG, grad_block(grad, lb.w1));
    grad_block(grad, lb.b1).row(0) = pass.dG.colwise().sum();
    pass.dU.resize(N, width_);
    multiply(pass.dG, t.w1, pass.dU, false);
    layer_norm_backward(pass.dU, c.xhat2, c.rstd2, cblock(lb.ln2_g), grad_block(grad, lb.ln2_g),
                        grad_block(grad, lb.ln2_b), pass.dmid, pass.row_mean, pass.row_mean_dx);
    pass.dmid += pass.dX;
    // Attention: x_mid = x_in + O Wo + bo.
    add_transpose_multiply(c.O, pass.dmid, grad_block(grad, lb.wo));
    grad_block(grad, lb.bo).row(0) = pass.dmid.colwise().sum();
    pass.dO.resize(N, HA);
    multiply(pass.dmid, t.wo, pass.dO, false);
    pass.dQKV.resize(N, 3 * HA);  // every (sample, head) block written below
    auto dQ = pass.dQKV.leftCols(HA);
    auto dK = pass.dQKV.middleCols(HA, HA);
    auto dV = pass.dQKV.rightCols(HA);
    for (Index s = 0; s < n; ++s) {
      for (Index h = 0; h < heads_; ++h) {
        const auto P = c.P.middleRows((s * heads_ + h) * T, T);
        const auto dO = pass.dO.block(s * T, h * A, T, A);
        block_products::times<false>(dV.block(s * T, h * A, T, A), P.transpose(), dO);
        block_products::times<false>(pass.dS, dO, c.V.block(s * T, h * A, T, A).transpose());  // dP
        pass.softmax_inner = (pass.dS.array() * P.array()).rowwise().sum();  // Σ_j dP_ij P_ij
        pass.dS = (P.array() * (pass.dS.colwise() - pass.softmax_inner).array()).matrix() * inv_sqrt_a;  // masked entries have P = 0
        block_products::times<false>(dQ.block(s * T, h * A, T, A), pass.dS, c.K.block(s * T, h * A, T, A));
        block_products::times<false>(dK.block(s * T, h * A, T, A), pass.dS.transpose(), c.Q.block(s * T, h * A, T, A));
      }
    }
    if (rope_) {  // back through the rotation: its inverse
      rotate(pass, dQ, -1);
      rotate(pass, dK, -1);
    }
    add_transpose_multiply(c.u1, dQ, grad_block(grad, lb.wq));
    add_transpose_multiply(c.u1, dK, grad_block(grad, lb.wk));
    add_transpose_multiply(c.u1, dV, grad_block(grad, lb.wv));
    grad_block(grad, lb.bq).row(0) = dQ.colwise().sum();
    grad_block(grad, lb.bk).row(0) = dK.colwise().sum();
    grad_block(grad, lb.bv).row(0) = dV.colwise().sum();
    multiply(pass.dQKV, t.wqkv, pass.dU, false);  // Σ over [Q K V]: dQ W_qᵀ + dK W_kᵀ + dV W_vᵀ
    layer_norm_backward(pass.dU, c.xhat1, c.rstd1, cblock(lb.ln1_g), grad_block(grad, lb.ln1_g),
                        grad_block(grad, lb.ln1_b), pass.dX, pass.row_mean, pass.row_mean_dx);
    pass.dX += pass.dmid;
  }
  const Scalar scale = static_cast<Scalar>(std::sqrt(static_cast<double>(width_)));
  MatMap gE = grad_block(grad, embed_);
  for (Index r = 0; r < N; ++r) gE.row(pass.tokens[static_cast<std::size_t>(r)]) += scale * pass.dX.row(r);
  if (!rope_) {
    MatMap gP = grad_block(grad, pos_);
    for (Index r = 0; r < N; ++r) gP.row(pass.positions[static_cast<std::size_t>(r)]) += pass.dX.row(r);
  }
}

}  // namespace featurelab::fourier_icl_pack
