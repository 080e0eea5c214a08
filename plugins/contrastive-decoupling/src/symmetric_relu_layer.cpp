// A = XWᵀ, f = h(A; b) elementwise; backward: the gate 1[a > b] + 1[−a > b] times dout, then ∇W = dAᵀX and a
// column sum for ∇b. The two products read X (n×d1, up to 16,640 × 2048 a step) in place, register-tiled over the
// m neurons (featurelab/tiled_products.hpp), instead of a GEMM that copies X into packed panels first and, with
// m = 64 outputs, runs a quarter of its tiles at a fraction of its speed: at d1 = 2048 the forward product takes
// 23 ms instead of 43, ∇W 25 ms instead of 43–63 on one Zen 5 core (bench/README.md).
#include "symmetric_relu_layer.hpp"

#include <featurelab/error.hpp>
#include <featurelab/parallel_product.hpp>
#include <featurelab/tiled_products.hpp>

#include <algorithm>
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

namespace {

// Rows of X per pass of ∇W's tiles: their 128 × d1 inputs (1 MB at d1 = 2048) and 128 × m of dA stay in L2 while
// the tiles of every input sweep them (256 rows: 35 ms instead of 25 at d1 = 2048).
constexpr Index kGradientRows = 128;

}  // namespace

void SymmetricReluLayer::pre_activations(ConstMatRef X, Mat& A) {
  A.resize(X.rows(), width_);
  if (!tiled_products::fits_strips(width_)) {  // m not a whole number of vector strips
    A.noalias() = X * block(W_).transpose();
    return;
  }
  Wt_ = block(W_).transpose();  // d1×m: the tiles read a strip of m neurons per input
  // Blocks of rows on the job's threads (fixed by the shape; each output is one sum with its terms in a fixed
  // order whatever the blocks, tiled_products.hpp, so the bits do not depend on the thread count).
  const Index rows = X.rows();
  detail::over_product_blocks(rows, product_blocks(rows, detail::product_flops(rows, dim_, width_)), [&](Index begin, Index size) {
    tiled_products::times<false>(X.data() + begin * X.outerStride(), X.outerStride(), size, dim_, Wt_.data(), width_,
                                 A.data() + begin * width_, width_, width_);
  });
}

void SymmetricReluLayer::weight_gradient(ConstMatRef X, MatRef dW) {
  if (!tiled_products::fits_strips(width_)) {
    dW.noalias() = dA_.transpose() * X;
    return;
  }
  // ∇Wᵀ (d1×m) = Xᵀ dA, by blocks of inputs; within a block every row of the batch in order.
  dWt_.setZero(dim_, width_);
  const Index rows = X.rows();
  detail::over_product_blocks(dim_, product_blocks(dim_, detail::product_flops(rows, dim_, width_)), [&](Index begin, Index size) {
    for (Index r = 0; r < rows; r += kGradientRows) {
      tiled_products::add_transpose_times(X.data() + r * X.outerStride() + begin, X.outerStride(), std::min(kGradientRows, rows - r),
                                          size, dA_.data() + r * width_, width_, dWt_.data() + begin * width_, width_, width_);
    }
  });
  dW = dWt_.transpose();
}

void SymmetricReluLayer::forward(ConstMatRef X, MatRef out) {
  pre_activations(X, A_);
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
  weight_gradient(X, grad_block(grad, W_));
}

void SymmetricReluLayer::input_gradient(ConstMatRef X, ConstMatRef dout, MatRef dX) {
  pre_activations(X, A_);
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
    pre_activations(X, out);
    return;
  }
  if (name != "hidden.post") Model::hook(name, X, out);
  out.resize(X.rows(), width_);
  forward(X, out);
}

}  // namespace featurelab::contrastive_decoupling_pack
