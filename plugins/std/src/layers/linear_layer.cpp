// The affine layer: one product forward (X Wᵀ), two backward (Gᵀ X for ∇W, G W for the input), register-tiled
// where the widths allow (tiled_linear.hpp).
#include "linear_layer.hpp"

#include "tiled_linear.hpp"

#include <featurelab/error.hpp>

#include <cmath>

namespace featurelab::std_pack {

Schema LinearLayer::schema() {
  Schema s;
  s.integer("out", Automatic{"one output per class, 1 for two classes (±1 labels), else the targets' columns"},
            "outputs (per token on a sequence)")
      .min(1);
  s.boolean("bias", true, "a bias b (trained with W unless trainable = false)");
  s.choice("init", "fan-in", {"fan-in", "he", "xavier", "uniform", "balanced", "random-sign", "per-class", "zero"},
           "initialisation of W: N(0, 1/in), N(0, 2/in), N(0, 2/(in+out)), U(±1/√in) for W and b (PyTorch), "
           "±s half each (one output), ±s i.i.d., per-class groups of weight s, or zero");
  s.real("init_std", Automatic{"from init: 1/√in, √(2/in), √(2/(in+out)); s = 1/√in"},
         "the std of W (or the magnitude s of balanced, random-sign, per-class)")
      .min(0);
  s.real("bias_init_std", 0.0, "std of the initial bias; 0: it starts at 0 (init = \"uniform\": U(±1/√in))").min(0);
  s.boolean("trainable", true, "whether W and b train; false: fixed at their initial values");
  return s;
}

LinearLayer::LinearLayer(const Params& params, Context&)
    : requested_out_(params.integer_or_auto("out")),
      bias_(params.boolean("bias")),
      trainable_(params.boolean("trainable")),
      init_(params.str("init")),
      init_std_(params.real_or_auto("init_std")),
      bias_init_std_(params.real("bias_init_std")) {}

LayerShape LinearLayer::build(const LayerShape& in, LayerBuilder& builder) {
  if (in.is_image()) {
    throw Error("linear takes flat inputs or sequences, not an image (" + in.describe() +
                "); put a flatten layer before it");
  }
  tokens_ = in.is_sequence() ? in.dims[0] : 1;
  in_ = in.features();
  out_ = requested_out_ ? *requested_out_ : builder.automatic_outputs();
  if (init_ == "balanced" && out_ != 1) {
    throw Error("init = \"balanced\" is a single output's ±s readout, but out = " + std::to_string(out_) +
                "; use init = \"per-class\" or \"random-sign\" for several outputs");
  }
  if (init_ == "per-class" && in_ % out_ != 0) {
    throw Error("init = \"per-class\" splits the " + std::to_string(in_) + " inputs into " + std::to_string(out_) +
                " equal groups; use a width that is a multiple of " + std::to_string(out_));
  }
  W_ = builder.declare("W", out_, in_, trainable_);
  if (bias_) b_ = builder.declare("b", 1, out_, trainable_);
  return in.is_sequence() ? LayerShape::sequence(tokens_, out_) : LayerShape::flat(out_);
}

void LinearLayer::init(const LayerWeights& weights, Rng& rng) {
  MatMap W = weights.value(W_);
  const double fan_in = static_cast<double>(in_);
  double std = 1.0 / std::sqrt(fan_in);
  if (init_ == "he") std = std::sqrt(2.0 / fan_in);
  if (init_ == "xavier") std = std::sqrt(2.0 / (fan_in + static_cast<double>(out_)));
  if (init_std_) std = *init_std_;
  const auto s = static_cast<Scalar>(std);
  if (init_ == "uniform") {
    rng.fill_uniform(W, -std, std);
    if (bias_) rng.fill_uniform(weights.value(b_), -std, std);
    return;
  }
  if (init_ == "balanced") {
    for (Index j = 0; j < in_; ++j) W(0, j) = in_ % 2 == 1 && j == in_ - 1 ? Scalar(0) : (j < in_ / 2 ? s : -s);
  } else if (init_ == "random-sign") {
    for (Index k = 0; k < out_; ++k) {
      for (Index j = 0; j < in_; ++j) W(k, j) = rng.bernoulli(0.5) ? s : -s;
    }
  } else if (init_ == "per-class") {
    W.setZero();
    const Index group = in_ / out_;
    for (Index k = 0; k < out_; ++k) W.block(k, k * group, 1, group).setConstant(s);
  } else if (init_ == "zero") {
    W.setZero();
  } else {
    rng.fill_normal(W, std);
  }
  if (bias_) {
    if (bias_init_std_ > 0) {
      rng.fill_normal(weights.value(b_), bias_init_std_);
    } else {
      weights.value(b_).setZero();
    }
  }
}

void LinearLayer::forward(const LayerWeights& weights, ConstMatRef in, MatRef out, LayerTape& tape) const {
  // A sequence's n×(T·d) rows are the (n·T)×d token rows, row-major: the same memory.
  const Index rows = in.rows() * tokens_;
  ConstMatMap X(in.data(), rows, in_);
  MatMap Y(out.data(), rows, out_);
  tiled_linear::times_transposed(Y, X, weights(W_), tape.buffer(0, in_, out_));  // buffer 0: Wᵀ
  if (bias_) Y.rowwise() += weights(b_).row(0);
}

void LinearLayer::backward(const LayerPass& pass, ConstMatRef dout, LayerGrads& grads) const {
  const Index rows = pass.in.rows() * tokens_;
  ConstMatMap X(pass.in.data(), rows, in_);
  ConstMatMap G(dout.data(), rows, out_);
  if (grads.trains(W_)) {
    MatMap dW = grads(W_);
    tiled_linear::transpose_times(dW, X, G, pass.tape.buffer(1, in_, out_));  // out×in; buffer 1: ∇Wᵀ
    if (bias_) grads(b_).row(0) = G.colwise().sum();
  }
  if (pass.want_din) {
    MatMap dX(pass.din.data(), rows, in_);
    tiled_linear::times(dX, G, pass.weights(W_));
  }
}

}  // namespace featurelab::std_pack
