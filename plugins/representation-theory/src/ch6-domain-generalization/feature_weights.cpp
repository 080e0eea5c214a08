// The diagonal model as one matrix-vector product.
#include "feature_weights.hpp"

#include <featurelab/error.hpp>

#include <string>

namespace featurelab::representation_theory_pack {

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

}  // namespace featurelab::representation_theory_pack
