// The nuclear norm of the batch's features in double, from the eigen-decomposition of the smaller Gram matrix.
#include "nuclear_norm_regularizer.hpp"

#include <featurelab/error.hpp>

#include <algorithm>
#include <cmath>

namespace featurelab::std_pack {

Schema NuclearNormRegularizer::schema() {
  Schema s;
  s.real("lambda", 0.01, "θ: the penalty's weight (the official code's default 0.01)").min(0);
  s.string("hook", "features", "the model's hook point whose batch matrix F (N×k) is penalised, e.g. hidden.post");
  s.boolean("per_sample", true, "divide ‖F‖_* by the batch size N, as the official code");
  s.integer("warmup", 0, "steps before the penalty switches on (0-based step t >= warmup; the official code: 100)")
      .min(0);
  s.real("tol", 1e-7, "singular values below tol·σ_max do not enter the subgradient U₊V₊ᵀ (at least 1e-7: the "
                     "Gram matrix resolves no less)").min(0).below(1);
  return s;
}

NuclearNormRegularizer::NuclearNormRegularizer(const Params& params, Context&)
    : lambda_(params.real("lambda")),
      hook_(params.str("hook")),
      per_sample_(params.boolean("per_sample")),
      warmup_(params.integer("warmup")),
      tol_(params.real("tol")) {}

void NuclearNormRegularizer::bind(Model& model) {
  for (const auto& h : model.hook_points()) {
    if (h.name == hook_) return;
  }
  std::string known;
  for (const auto& h : model.hook_points()) known += (known.empty() ? "" : ", ") + h.name;
  throw Error("nuclear-norm.hook = \"" + hook_ + "\" is not a hook point of the model" +
              (known.empty() ? std::string(" (it has none)") : "; it has: " + known));
}

double NuclearNormRegularizer::decompose(Model& model, ConstMatRef X) {
  model.hook(hook_, X, features_);
  features_d_ = features_.cast<double>();
  right_side_ = features_d_.cols() <= features_d_.rows();
  if (right_side_) {
    gram_.noalias() = features_d_.transpose() * features_d_;
  } else {
    gram_.noalias() = features_d_ * features_d_.transpose();
  }
  eigen_.compute(gram_);
  sigma_ = eigen_.eigenvalues().cwiseMax(0.0).cwiseSqrt();
  // Eigenvalues at rounding level (a rank-deficient F) turn into σ ~ 1e-8·σ_max of noise under the square root:
  // they are zeros, for the value as for the subgradient.
  const double cut = sigma_.size() > 0 ? std::max(tol_, 1e-7) * sigma_.maxCoeff() : 0.0;
  sigma_ = (sigma_.array() > cut).select(sigma_, 0.0);
  const double scale = per_sample_ ? static_cast<double>(X.rows()) : 1.0;
  return lambda_ * sigma_.sum() / scale;
}

Scalar NuclearNormRegularizer::penalty(Model& model, const Batch& batch, Index step) {
  if (!active(step) || batch.n == 0) return 0;
  return static_cast<Scalar>(decompose(model, batch.X()));
}

Scalar NuclearNormRegularizer::add_penalty(Model& model, const Batch& batch, Index step, VecRef grad) {
  if (!active(step) || batch.n == 0) return 0;
  const double value = decompose(model, batch.X());
  const Index m = sigma_.size();
  if (m == 0 || sigma_(m - 1) <= 0) return static_cast<Scalar>(value);  // F = 0: 0 is a subgradient
  // U₊V₊ᵀ = F·V₊Σ₊⁻¹V₊ᵀ (or U₊Σ₊⁻¹U₊ᵀ·F) over the eigenvalues above the cut; they come ascending, so
  // the kept ones are the last `rank`. The Gram matrix resolves σ only down to ~1e-8·σ_max.
  const double cut = std::max(tol_, 1e-7) * sigma_(m - 1);
  Index rank = 0;
  while (rank < m && sigma_(m - 1 - rank) > cut) ++rank;
  const auto basis = eigen_.eigenvectors().rightCols(rank);
  projector_.noalias() = basis * sigma_.tail(rank).cwiseInverse().asDiagonal() * basis.transpose();
  const double scale = lambda_ / (per_sample_ ? static_cast<double>(batch.n) : 1.0);
  if (right_side_) {
    dfeatures_ = (scale * features_d_ * projector_).cast<Scalar>();
  } else {
    dfeatures_ = (scale * projector_ * features_d_).cast<Scalar>();
  }
  model.hook_backward(hook_, batch.X(), dfeatures_, grad);
  return static_cast<Scalar>(value);
}

}  // namespace featurelab::std_pack
