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
  declare_block("w", 1, dim_, true);
  allocate_parameters();
}

void FeatureWeights::init(Rng& rng) {
  if (init_scale_ > 0) {
    rng.fill_normal(block("w"), init_scale_);
  } else {
    block("w").setZero();
  }
}

void FeatureWeights::forward(ConstMatRef X, MatRef out) { out.col(0).noalias() = X * block("w").row(0).transpose(); }

void FeatureWeights::backward(ConstMatRef X, ConstMatRef dout, VecRef grad) {
  grad.head(dim_).transpose().noalias() = dout.col(0).transpose() * X;
}

void FeatureWeights::input_gradient(ConstMatRef, ConstMatRef dout, MatRef dX) {
  dX.noalias() = dout.col(0) * block("w").row(0);
}

std::vector<HookSpec> FeatureWeights::hook_points() const {
  return {{"features", "n×d", "Φ(x)_j = w_j·z̃_j (backpropagates: regularizers of features)"}};
}

void FeatureWeights::hook(const std::string& name, ConstMatRef X, Mat& out) {
  if (name != "features") Model::hook(name, X, out);  // throws, naming the hook points there are
  out = X * block("w").row(0).asDiagonal();
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
  s.integer("width", 0, "k: the feature width; 0 = the input dimension").min(0);
  s.integer("outputs", 0, "head outputs; 0 = one per class").min(0);
  s.real("init_std", 0.5, "A ~ N(0, init_std²) (our choice; the chapter gives none)").above(0);
  s.real("head_bound", 0.0, "head and bias ~ U(−b, b); 0 = 1/√k (PyTorch's nn.Linear)").min(0);
  return s;
}

LinearFeatures::LinearFeatures(const Params& params, Context& context)
    : dim_(context.data.dim),
      width_(params.integer("width") > 0 ? params.integer("width") : context.data.dim),
      outputs_(params.integer("outputs") > 0 ? params.integer("outputs") : std::max(2, context.data.classes)),
      init_std_(params.real("init_std")),
      head_bound_(params.real("head_bound")) {
  if (dim_ <= 0) throw Error("the data has no input dimension (a distribution bug)");
  declare_block("A", width_, dim_, true);
  declare_block("head", outputs_, width_, true);
  declare_block("bias", 1, outputs_, true);
  allocate_parameters();
}

void LinearFeatures::init(Rng& rng) {
  rng.fill_normal(block("A"), init_std_);
  const double b = head_bound_ > 0 ? head_bound_ : 1.0 / std::sqrt(static_cast<double>(width_));
  rng.fill_uniform(block("head"), -b, b);
  rng.fill_uniform(block("bias"), -b, b);
}

void LinearFeatures::forward(ConstMatRef X, MatRef out) {
  F_.resize(X.rows(), width_);
  F_.noalias() = X * block("A").transpose();
  out.noalias() = F_ * block("head").transpose();
  out.rowwise() += block("bias").row(0);
}

void LinearFeatures::backward(ConstMatRef X, ConstMatRef dout, VecRef grad) {
  const ParamBlock& a = *find_block("A");
  const ParamBlock& h = *find_block("head");
  const ParamBlock& b = *find_block("bias");
  dF_.resize(X.rows(), width_);
  dF_.noalias() = dout * block("head");
  MatMap(grad.data() + a.offset, a.rows, a.cols).noalias() = dF_.transpose() * X;
  MatMap(grad.data() + h.offset, h.rows, h.cols).noalias() = dout.transpose() * F_;
  MatMap(grad.data() + b.offset, b.rows, b.cols) = dout.colwise().sum();
}

void LinearFeatures::input_gradient(ConstMatRef, ConstMatRef dout, MatRef dX) {
  dX.noalias() = dout * block("head") * block("A");
}

std::vector<HookSpec> LinearFeatures::hook_points() const {
  return {{"features", "n×k", "Φ(x) = Ax (backpropagates: regularizers of features)"}};
}

void LinearFeatures::hook(const std::string& name, ConstMatRef X, Mat& out) {
  if (name != "features") Model::hook(name, X, out);  // throws, naming the hook points there are
  out.resize(X.rows(), width_);
  out.noalias() = X * block("A").transpose();
}

void LinearFeatures::hook_backward(const std::string& name, ConstMatRef X, ConstMatRef dhook, VecRef grad) {
  if (name != "features") Model::hook(name, X, dF_);  // throws, naming the hook points there are
  const ParamBlock& a = *find_block("A");
  MatMap(grad.data() + a.offset, a.rows, a.cols).noalias() += dhook.transpose() * X;
}

}  // namespace representation_theory
