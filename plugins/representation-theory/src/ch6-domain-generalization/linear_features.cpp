// One GEMM per pass: X Aᵀ, then the head.
#include "linear_features.hpp"

#include <featurelab/error.hpp>

#include <algorithm>
#include <cmath>

namespace featurelab::representation_theory_pack {

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

}  // namespace featurelab::representation_theory_pack
