// Embedding lookup: token rows gathered over fixed chunks of the samples; the backward pass scatter-adds into ∇E
// in token order over fixed column chunks (each entry of ∇E a sum in the same order on any number of threads).
#include "embedding_layer.hpp"

#include <featurelab/dataset.hpp>
#include <featurelab/error.hpp>
#include <featurelab/threads.hpp>

#include <cmath>

namespace featurelab::std_pack {

Schema EmbeddingLayer::schema() {
  Schema s;
  s.integer("vocab", Automatic{"the distribution's feature \"vocab\""}, "token ids are in [0, vocab)").min(1);
  s.integer("width", 128, "d: each token's embedding width").min(1);
  s.choice("scale", "none", {"none", "sqrt-width"},
           "the token embedding's factor c: 1, or √d (the transformer of Shi 2024 ch. 4, after the grokking code "
           "base)");
  s.choice("positions", "learned", {"learned", "none"},
           "learned: a trained embedding P_t of each position added (block P); none: no positions here (none at "
           "all, or attention's positions = \"rope\")");
  s.real("init_std", 1.0, "std of E and P at init (N(0, 1): PyTorch's nn.Embedding, and the transformer's)").min(0);
  s.boolean("trainable", true, "whether E and P train; false: fixed at their initial values");
  return s;
}

// The contract test's data has no feature "vocab": a vocabulary of 7, and narrow embeddings.
std::map<std::string, Value> EmbeddingLayer::test_params() {
  return {{"vocab", std::int64_t(7)}, {"width", std::int64_t(4)}};
}

EmbeddingLayer::EmbeddingLayer(const Params& params, Context&)
    : requested_vocab_(params.integer_or_auto("vocab")),
      width_(params.integer("width")),
      scale_(params.str("scale")),
      learned_positions_(params.str("positions") == "learned"),
      init_std_(params.real("init_std")),
      trainable_(params.boolean("trainable")) {}

LayerShape EmbeddingLayer::build(const LayerShape& in, LayerBuilder& builder) {
  if (in.layout != LayerShape::Layout::Flat) {
    throw Error("embedding reads a flat row of token ids (one per column), not " + in.describe() +
                "; put it first, on token data (e.g. modular-sum with encoding = \"tokens\")");
  }
  tokens_ = in.size();
  if (requested_vocab_) {
    vocab_ = *requested_vocab_;
  } else {
    // The network's context: the distribution's features are the data's, which a layer's own context lacks.
    vocab_ = static_cast<Index>(require_feature(builder.context().features, "embedding", "vocab",
                                                "set vocab, or use a distribution that declares its token vocabulary "
                                                "(modular-sum with encoding = \"tokens\")",
                                                1, 1)(0, 0));
  }
  c_ = scale_ == "sqrt-width" ? static_cast<Scalar>(std::sqrt(static_cast<double>(width_))) : Scalar(1);
  E_ = builder.declare("E", vocab_, width_, trainable_);
  if (learned_positions_) P_ = builder.declare("P", tokens_, width_, trainable_);
  return LayerShape::sequence(tokens_, width_);
}

void EmbeddingLayer::init(const LayerWeights& weights, Rng& rng) {
  rng.fill_normal(weights.value(E_), init_std_);
  if (P_) rng.fill_normal(weights.value(P_), init_std_);
}

void EmbeddingLayer::forward(const LayerWeights& weights, ConstMatRef in, MatRef out, LayerTape&) const {
  // Every id checked first: the gather below runs on threads, where nothing may throw.
  for (Index i = 0; i < in.rows(); ++i) {
    for (Index t = 0; t < tokens_; ++t) {
      const long id = std::lround(static_cast<double>(in(i, t)));
      if (id < 0 || id >= vocab_) {
        throw Error("embedding: token " + std::to_string(id) + " at position " + std::to_string(t) +
                    " is outside the vocabulary [0, " + std::to_string(vocab_) + ")");
      }
    }
  }
  const ConstMatMap E = weights(E_);
  const ConstMatMap Pos(P_ ? weights(P_).data() : nullptr, P_ ? tokens_ : 0, width_);
  parallel_over_chunks(in.rows(), [&](Index, Index first, Index last) {
    for (Index i = first; i < last; ++i) {
      for (Index t = 0; t < tokens_; ++t) {
        auto x = out.row(i).segment(t * width_, width_);
        x = c_ * E.row(std::lround(static_cast<double>(in(i, t))));
        if (P_) x += Pos.row(t);
      }
    }
  }, in.rows() * tokens_ * width_);
}

void EmbeddingLayer::backward(const LayerPass& pass, ConstMatRef dout, LayerGrads& grads) const {
  if (pass.want_din) pass.din.setZero();  // token ids: no gradient
  if (!grads.trains(E_)) return;
  const Index n = pass.in.rows();
  // ∇E[v] = c·Σ_{(i, t): token v} dout_{i,t}, added in (sample, position) order; each chunk owns a range of ∇E's
  // columns, so no two threads write the same entry.
  MatMap dE = grads(E_);
  dE.setZero();
  parallel_over_chunks(width_, [&](Index, Index first, Index last) {
    if (first == last) return;
    for (Index i = 0; i < n; ++i) {
      for (Index t = 0; t < tokens_; ++t) {
        const long id = std::lround(static_cast<double>(pass.in(i, t)));
        dE.row(id).segment(first, last - first) += c_ * dout.row(i).segment(t * width_ + first, last - first);
      }
    }
  }, dE.size() + dout.size());
  // ∇P_t = Σ_i dout_{i,t}: the column sums of the n × (T·d) gradient, P's T×d entries in the same order.
  if (P_) MatMap(grads(P_).data(), 1, tokens_ * width_) = dout.colwise().sum();
}

}  // namespace featurelab::std_pack
