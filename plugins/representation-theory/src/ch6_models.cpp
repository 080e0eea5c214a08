// Chapter 6's models: one GEMM per pass (X Aᵀ, then the head), the diagonal model as one
// matrix-vector product.
#include "ch6_models.hpp"

#include <featurelab/error.hpp>

#include <cmath>

namespace representation_theory {

using namespace featurelab;

Schema FeatureWeights::schema() {
  Schema s;
  s.real("init_scale", 0.0, "std of the initial weights; 0 = start from w = 0 (the theory's ERM starting point)").min(0);
  return s;
}

FeatureWeights::FeatureWeights(const Params& params, Context& context)
    : dim_(context.data.dim), init_scale_(params.real("init_scale")) {
  if (context.data.classes != 2) {
    throw Error("feature-weights is a binary classifier (one output), the data has " +
                std::to_string(context.data.classes) + " classes");
  }
  w_ = declare_block("w", 1, dim_, true);  // the only block: θ = w, so the gradient is grad.head(dim_)
  allocate_parameters();
}

void FeatureWeights::init(Rng& rng) {
  if (init_scale_ > 0) {
    rng.fill_normal(block(w_), init_scale_);
  } else {
    block(w_).setZero();
  }
}

void FeatureWeights::forward(ConstMatRef X, MatRef out) { out.col(0).noalias() = X * block(w_).row(0).transpose(); }

void FeatureWeights::backward(ConstMatRef X, ConstMatRef dout, VecRef grad) {
  grad.head(dim_).transpose().noalias() = dout.col(0).transpose() * X;
}

void FeatureWeights::input_gradient(ConstMatRef, ConstMatRef dout, MatRef dX) {
  dX.noalias() = dout.col(0) * block(w_).row(0);
}

std::vector<HookSpec> FeatureWeights::hook_points() const {
  return {{"features", "n×d", "Φ(x)_j = w_j·z̃_j (backpropagates: regularizers of features)"}};
}

void FeatureWeights::hook(const std::string& name, ConstMatRef X, Mat& out) {
  if (name != "features") Model::hook(name, X, out);  // throws, naming the hook points there are
  out = X * block(w_).row(0).asDiagonal();
}

void FeatureWeights::hook_backward(const std::string& name, ConstMatRef X, ConstMatRef dhook, VecRef grad) {
  if (name != "features") {
    Mat unused;
    Model::hook(name, X, unused);  // throws, naming the hook points there are
  }
  // ∂/∂w_j Σ_i dF_ij·w_j·X_ij = Σ_i dF_ij·X_ij.
  grad.head(dim_).transpose() += (dhook.array() * X.array()).colwise().sum().matrix();
}

Schema LinearFeatures::schema() {
  Schema s;
  s.integer("width", Automatic{"the input dimension"}, "k: the feature width").min(1);
  s.integer("outputs", Automatic{"one per class (at least 2)"}, "head outputs").min(1);
  s.real("init_std", 0.5, "A ~ N(0, init_std²) (our choice; the chapter gives none)").above(0);
  s.real("head_bound", Automatic{"1/√k (PyTorch's nn.Linear)"}, "head and bias ~ U(−b, b)").above(0);
  return s;
}

LinearFeatures::LinearFeatures(const Params& params, Context& context)
    : dim_(context.data.dim),
      width_(params.integer_or_auto("width").value_or(context.data.dim)),
      outputs_(params.integer_or_auto("outputs").value_or(std::max(2, context.data.classes))),
      init_std_(params.real("init_std")),
      head_bound_(params.real_or_auto("head_bound")) {
  if (dim_ <= 0) throw Error("the data has no input dimension (a distribution bug)");
  A_ = declare_block("A", width_, dim_, true);
  head_ = declare_block("head", outputs_, width_, true);
  bias_ = declare_block("bias", 1, outputs_, true);
  allocate_parameters();
}

void LinearFeatures::init(Rng& rng) {
  rng.fill_normal(block(A_), init_std_);
  const double b = head_bound_ ? *head_bound_ : 1.0 / std::sqrt(static_cast<double>(width_));
  rng.fill_uniform(block(head_), -b, b);
  rng.fill_uniform(block(bias_), -b, b);
}

void LinearFeatures::forward(ConstMatRef X, MatRef out) {
  F_.resize(X.rows(), width_);
  F_.noalias() = X * block(A_).transpose();
  out.noalias() = F_ * block(head_).transpose();
  out.rowwise() += block(bias_).row(0);
}

void LinearFeatures::backward(ConstMatRef X, ConstMatRef dout, VecRef grad) {
  dF_.resize(X.rows(), width_);
  dF_.noalias() = dout * block(head_);
  grad_block(grad, A_).noalias() = dF_.transpose() * X;
  grad_block(grad, head_).noalias() = dout.transpose() * F_;
  grad_block(grad, bias_) = dout.colwise().sum();
}

void LinearFeatures::input_gradient(ConstMatRef, ConstMatRef dout, MatRef dX) {
  dX.noalias() = dout * block(head_) * block(A_);
}

std::vector<HookSpec> LinearFeatures::hook_points() const {
  return {{"features", "n×k", "Φ(x) = Ax (backpropagates: regularizers of features)"}};
}

void LinearFeatures::hook(const std::string& name, ConstMatRef X, Mat& out) {
  if (name != "features") Model::hook(name, X, out);  // throws, naming the hook points there are
  out.resize(X.rows(), width_);
  out.noalias() = X * block(A_).transpose();
}

void LinearFeatures::hook_backward(const std::string& name, ConstMatRef X, ConstMatRef dhook, VecRef grad) {
  if (name != "features") Model::hook(name, X, dF_);  // throws, naming the hook points there are
  grad_block(grad, A_).noalias() += dhook.transpose() * X;
}

}  // namespace representation_theory
