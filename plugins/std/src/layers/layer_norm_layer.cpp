// Layer normalisation row by row over fixed chunks of the n·T token rows (the same bits on any number of threads);
// the gradients of γ and β summed per chunk, then over the chunks in order.
#include "layer_norm_layer.hpp"

#include <featurelab/error.hpp>
#include <featurelab/threads.hpp>

#include <cmath>

namespace featurelab::std_pack {

Schema LayerNormLayer::schema() {
  Schema s;
  s.real("epsilon", 1e-5, "ε added to the variance (PyTorch's default, and the transformer's)").above(0);
  s.boolean("trainable", true, "whether γ and β train; false: fixed at 1 and 0 (a plain normalisation)");
  return s;
}

LayerNormLayer::LayerNormLayer(const Params& params, Context&)
    : epsilon_(static_cast<Scalar>(params.real("epsilon"))), trainable_(params.boolean("trainable")) {}

LayerShape LayerNormLayer::build(const LayerShape& in, LayerBuilder& builder) {
  if (in.is_image()) {
    throw Error("layer-norm normalises a flat row or each token of a sequence, not an image (" + in.describe() +
                "); put a flatten layer before it");
  }
  tokens_ = in.is_sequence() ? in.dims[0] : 1;
  width_ = in.features();
  g_ = builder.declare("g", 1, width_, trainable_);
  b_ = builder.declare("b", 1, width_, trainable_);
  return in;
}

void LayerNormLayer::init(const LayerWeights& weights, Rng&) {
  weights.value(g_).setOnes();
  weights.value(b_).setZero();
}

void LayerNormLayer::forward(const LayerWeights& weights, ConstMatRef in, MatRef out, LayerTape& tape) const {
  // A sequence's n×(T·d) rows are the (n·T)×d token rows, row-major: the same memory.
  const Index rows = in.rows() * tokens_;
  ConstMatMap X(in.data(), rows, width_);
  MatMap Y(out.data(), rows, width_);
  Mat& mean = tape.buffer(0, rows, 1);
  Mat& rstd = tape.buffer(1, rows, 1);
  const auto g = weights(g_).row(0).array();
  const auto b = weights(b_).row(0).array();
  const auto d = static_cast<Scalar>(width_);
  parallel_over_chunks(rows, [&](Index, Index first, Index last) {
    for (Index r = first; r < last; ++r) {
      const auto x = X.row(r).array();
      const Scalar mu = x.sum() / d;
      const Scalar s = Scalar(1) / std::sqrt((x - mu).square().sum() / d + epsilon_);
      mean(r, 0) = mu;
      rstd(r, 0) = s;
      Y.row(r).array() = ((x - mu) * s) * g + b;
    }
  }, rows * width_);
}

void LayerNormLayer::backward(const LayerPass& pass, ConstMatRef dout, LayerGrads& grads) const {
  const bool params = grads.trains(g_);
  if (!params && !pass.want_din) return;
  const Index rows = pass.in.rows() * tokens_;
  ConstMatMap X(pass.in.data(), rows, width_);
  ConstMatMap G(dout.data(), rows, width_);
  // Rows c and parallel_chunks + c: chunk c's share of ∇γ and ∇β.
  Mat& partial = pass.tape.buffer(2, 2 * parallel_chunks, width_);
  const Mat& mean = pass.tape.buffers[0];
  const Mat& rstd = pass.tape.buffers[1];
  const auto g = pass.weights(g_).row(0).array();
  const auto d = static_cast<Scalar>(width_);
  MatMap DX(pass.want_din ? pass.din.data() : nullptr, rows, width_);
  parallel_over_chunks(rows, [&](Index chunk, Index first, Index last) {
    auto dgamma = partial.row(chunk).array();
    auto dbeta = partial.row(parallel_chunks + chunk).array();
    if (params) {
      dgamma.setZero();
      dbeta.setZero();
    }
    for (Index r = first; r < last; ++r) {
      const auto xhat = (X.row(r).array() - mean(r, 0)) * rstd(r, 0);
      const auto dy = G.row(r).array();
      if (params) {
        dgamma += dy * xhat;
        dbeta += dy;
      }
      if (pass.want_din) {
        const auto dxhat = dy * g;
        const Scalar mean_dxhat = dxhat.sum() / d;
        const Scalar mean_dxhat_xhat = (dxhat * xhat).sum() / d;
        DX.row(r).array() = (dxhat - mean_dxhat - xhat * mean_dxhat_xhat) * rstd(r, 0);
      }
    }
  }, 2 * rows * width_);
  if (params) {
    MatMap dgamma = grads(g_), dbeta = grads(b_);
    dgamma = partial.row(0);
    dbeta = partial.row(parallel_chunks);
    for (Index c = 1; c < parallel_chunks; ++c) {
      dgamma += partial.row(c);
      dbeta += partial.row(parallel_chunks + c);
    }
  }
}

}  // namespace featurelab::std_pack
