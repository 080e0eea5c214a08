// The nuclear norm of the batch's features in double: from the smaller Gram matrix's eigenvalues where F is
// float, from an SVD of F where F is double (the header says why).
#include "nuclear_norm_regularizer.hpp"

#include "hook_point_check.hpp"

#include <featurelab/error.hpp>

#include <algorithm>
#include <cmath>

namespace featurelab::std_pack {

namespace {

// F's scalar type decides the route: the Gram matrix in double loses nothing below a float F's rounding.
constexpr bool kSvdRoute = kDouble;
#ifdef FEATURELAB_SCALAR_DOUBLE
static_assert(kSvdRoute, "the SVD route is compiled where Scalar is double");
#else
static_assert(!kSvdRoute, "the Gram route is compiled where Scalar is float");
#endif
// The smallest fraction of σ_max each route resolves: √ε_double for the Gram matrix, ~100·ε_double for the SVD.
constexpr double kResolved = kSvdRoute ? 1e-13 : 1e-7;

}  // namespace

Schema NuclearNormRegularizer::schema() {
  Schema s;
  s.real("lambda", 0.01, "θ: the penalty's weight (the official code's default 0.01)").min(0);
  s.string("hook", "features", "the model's hook point whose batch matrix F (N×k) is penalised, e.g. hidden.post");
  s.boolean("per_sample", true, "divide ‖F‖_* by the batch size N, as the official code");
  s.integer("warmup", 0, "steps before the penalty switches on (0-based step t >= warmup; the official code: 100)")
      .min(0);
  s.real("tol", 1e-7, "singular values below tol·σ_max are zeros, for the value and the subgradient U₊V₊ᵀ (a float "
                     "build resolves no less than 1e-7, a double build 1e-13)").min(0).below(1);
  return s;
}

NuclearNormRegularizer::NuclearNormRegularizer(const Params& params, Context&)
    : lambda_(params.real("lambda")),
      hook_(params.str("hook")),
      per_sample_(params.boolean("per_sample")),
      warmup_(params.integer("warmup")),
      tol_(params.real("tol")) {}

void NuclearNormRegularizer::bind(Model& model) { require_hook_point(model, "nuclear-norm", hook_); }

double NuclearNormRegularizer::decompose(Model& model, ConstMatRef X) {
  model.hook(hook_, X, features_);
  features_d_ = features_.cast<double>();
#ifdef FEATURELAB_SCALAR_DOUBLE
  decompose_by_svd();
#else
  decompose_by_gram();
#endif
  const double scale = per_sample_ ? static_cast<double>(X.rows()) : 1.0;
  return lambda_ * sigma_.sum() / scale;
}

#ifdef FEATURELAB_SCALAR_DOUBLE
void NuclearNormRegularizer::decompose_by_svd() {
  thin_svd(features_d_, svd_);
  sigma_ = svd_.values;  // descending
  const double cut = sigma_.size() > 0 ? std::max(tol_, kResolved) * sigma_(0) : 0.0;
  sigma_ = (sigma_.array() > cut).select(sigma_, 0.0);
  rank_ = 0;
  while (rank_ < sigma_.size() && sigma_(rank_) > 0) ++rank_;
}

void NuclearNormRegularizer::subgradient_by_svd(double scale) {
  dfeatures_ = (scale * svd_.U.leftCols(rank_) * svd_.V.leftCols(rank_).transpose()).cast<Scalar>();
}

#else

void NuclearNormRegularizer::decompose_by_gram() {
  right_side_ = features_d_.cols() <= features_d_.rows();
  if (right_side_) {
    gram_.noalias() = features_d_.transpose() * features_d_;
  } else {
    gram_.noalias() = features_d_ * features_d_.transpose();
  }
  symmetric_eigen(gram_, eigen_);
  sigma_ = eigen_.values.cwiseMax(0.0).cwiseSqrt();
  // Eigenvalues at rounding level (a rank-deficient F) turn into σ ~ 1e-8·σ_max of noise under the square root:
  // they are zeros, for the value as for the subgradient. Ascending: the kept ones are the last rank_.
  const Index m = sigma_.size();
  const double cut = m > 0 ? std::max(tol_, kResolved) * sigma_(m - 1) : 0.0;
  sigma_ = (sigma_.array() > cut).select(sigma_, 0.0);
  rank_ = 0;
  while (rank_ < m && sigma_(m - 1 - rank_) > 0) ++rank_;
}

void NuclearNormRegularizer::subgradient_by_gram(double scale) {
  // U₊V₊ᵀ = F·V₊Σ₊⁻¹V₊ᵀ (or U₊Σ₊⁻¹U₊ᵀ·F): the eigenvectors of the kept eigenvalues, the last rank_.
  const auto basis = eigen_.vectors.rightCols(rank_);
  projector_.noalias() = basis * sigma_.tail(rank_).cwiseInverse().asDiagonal() * basis.transpose();
  if (right_side_) {
    dfeatures_ = (scale * features_d_ * projector_).cast<Scalar>();
  } else {
    dfeatures_ = (scale * projector_ * features_d_).cast<Scalar>();
  }
}

#endif

Scalar NuclearNormRegularizer::penalty(Model& model, const Batch& batch, Index step) {
  if (!active(step) || batch.n == 0) return 0;
  return static_cast<Scalar>(decompose(model, batch.X()));
}

Scalar NuclearNormRegularizer::add_penalty(Model& model, const Batch& batch, Index step, VecRef grad) {
  if (!active(step) || batch.n == 0) return 0;
  const double value = decompose(model, batch.X());
  if (rank_ == 0) return static_cast<Scalar>(value);  // F = 0: 0 is a subgradient
  const double scale = lambda_ / (per_sample_ ? static_cast<double>(batch.n) : 1.0);
#ifdef FEATURELAB_SCALAR_DOUBLE
  subgradient_by_svd(scale);
#else
  subgradient_by_gram(scale);
#endif
  model.hook_backward(hook_, batch.X(), dfeatures_, grad);
  return static_cast<Scalar>(value);
}

}  // namespace featurelab::std_pack
