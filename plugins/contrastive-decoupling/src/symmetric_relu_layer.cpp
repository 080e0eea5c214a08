// A = XWᵀ (one GEMM), f = h(A; b) elementwise; backward: the gate 1[a > b] + 1[−a > b] times dout, then one
// GEMM for ∇W and a column sum for ∇b.
#include "symmetric_relu_layer.hpp"

#include <featurelab/error.hpp>

#include <cmath>

namespace featurelab::contrastive_decoupling_pack {

Schema SymmetricReluLayer::schema() {
  Schema s;
  s.integer("width", 128, "m: neurons (the representation's dimension; the theory has m = d^1.01, our default 4d)").min(1);
  s.real("init_norm", 1.0 / 32, "‖w_i⁽⁰⁾‖ ≈ init_norm: w_i ~ N(0, init_norm²/d1 I) (the paper's σ_0² = Θ(1/(d1 poly d)); "
                                "1/d is our choice)").above(0);
  s.boolean("train_bias", false, "b is trained by the loss's gradient (footnote 4's experiment); otherwise the trainer "
                                 "sets it (contrastive-sgd's schedule) and optimizers never touch it");
  return s;
}

SymmetricReluLayer::SymmetricReluLayer(const Params& params, Context& context)
    : width_(params.integer("width")), dim_(context.data.dim), init_norm_(params.real("init_norm")) {
  if (dim_ <= 0) throw Error("the data has no input dimension (a distribution bug)");
  W_ = declare_block("W", width_, dim_, true);
  b_ = declare_block("b", 1, width_, params.boolean("train_bias"));
  allocate_parameters();
}

void SymmetricReluLayer::init(Rng& rng) {
  rng.fill_normal(block(W_), init_norm_ / std::sqrt(static_cast<double>(dim_)));
  block(b_).setZero();
}

void SymmetricReluLayer::forward(ConstMatRef X, MatRef out) {
  A_.resize(X.rows(), width_);
  A_.noalias() = X * block(W_).transpose();
  const auto b = cblock(b_).row(0).array();
  // ReLU(a − b) − ReLU(−a − b), one fused pass.
  out.array() = (A_.array().rowwise() - b).cwiseMax(Scalar(0)) - ((-A_.array()).rowwise() - b).cwiseMax(Scalar(0));
}

void SymmetricReluLayer::backward(ConstMatRef X, ConstMatRef dout, VecRef grad) {
  const auto b = cblock(b_).row(0).array();
  const auto up = ((A_.array().rowwise() - b) > Scalar(0)).cast<Scalar>();       // 1[a > b]
  const auto down = (((-A_.array()).rowwise() - b) > Scalar(0)).cast<Scalar>();  // 1[−a > b]
  if (block_info(b_).trainable) grad_block(grad, b_) = (dout.array() * (down - up)).colwise().sum().matrix();
  dA_.resize(X.rows(), width_);
  dA_.array() = dout.array() * (up + down);
  grad_block(grad, W_).noalias() = dA_.transpose() * X;
}

void SymmetricReluLayer::input_gradient(ConstMatRef X, ConstMatRef dout, MatRef dX) {
  A_.resize(X.rows(), width_);
  A_.noalias() = X * block(W_).transpose();
  const auto b = cblock(b_).row(0).array();
  dA_.resize(X.rows(), width_);
  dA_.array() = dout.array() * (((A_.array().rowwise() - b) > Scalar(0)).cast<Scalar>() +
                                (((-A_.array()).rowwise() - b) > Scalar(0)).cast<Scalar>());
  dX.noalias() = dA_ * block(W_);
}

std::vector<HookSpec> SymmetricReluLayer::hook_points() const {
  return {{"hidden.pre", "n×m", "pre-activations ⟨w_i, x⟩ (before the bias)"},
          {"hidden.post", "n×m", "the representation f(x) (the model's output)"}};
}

void SymmetricReluLayer::hook(const std::string& name, ConstMatRef X, Mat& out) {
  if (name == "hidden.pre") {
    out.noalias() = X * block(W_).transpose();
    return;
  }
  if (name != "hidden.post") Model::hook(name, X, out);
  out.resize(X.rows(), width_);
  forward(X, out);
}

}  // namespace featurelab::contrastive_decoupling_pack
