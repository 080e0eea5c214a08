// Prompts drawn as Gaussian vectors mapped by QD^{1/2}, token by token into the prompt rows.
#include "icl_linear_regression.hpp"

#include <algorithm>
#include <featurelab/error.hpp>
#include <featurelab/linalg.hpp>

#include <cmath>

namespace featurelab::fourier_icl_pack {

Schema IclLinearRegression::schema() {
  Schema s;
  s.reals("eigenvalues", {2, 1.5, 1, 0.5, 0.1, 0.1, 0.1, 0.1}, "λ_1 ≥ … ≥ λ_d ≥ 0 of the token covariance (d = their number)").non_empty();
  s.choice("basis", "random-orthogonal", {"random-orthogonal", "identity"}, "Q: the covariance's eigenvectors");
  s.integer("context", 50, "N: examples per pretraining prompt (train split)").min(1);
  s.integer("shots", 16, "M: examples per evaluation prompt (test split)").min(1);
  s.real("noise", 0.0, "σ: label noise of the evaluation prompts' examples").min(0);
  s.reals("task", {1, 1}, "c: the evaluation task w = Qc in eigenbasis coordinates (zero-padded to d)").non_empty();
  return s;
}

IclLinearRegression::IclLinearRegression(const Params& params, Context& context)
    : context_(params.integer("context")), shots_(params.integer("shots")), sigma_(params.real("noise")) {
  const auto lambda = params.reals("eigenvalues");
  d_ = static_cast<Index>(lambda.size());
  lambda_ = Eigen::Map<const VecD>(lambda.data(), d_);
  for (Index i = 0; i < d_; ++i) {
    if (lambda_(i) < 0) throw Error("eigenvalues must be >= 0, got " + std::to_string(lambda_(i)));
    if (i > 0 && lambda_(i) > lambda_(i - 1)) {
      throw Error("eigenvalues must be sorted from the largest (the theory's rank-r model keeps the top r); entry " +
                  std::to_string(i) + " exceeds entry " + std::to_string(i - 1));
    }
  }
  if (lambda_(0) <= 0) throw Error("eigenvalues are all 0: the tokens would be 0");
  const auto task = params.reals("task");
  if (static_cast<Index>(task.size()) > d_) {
    throw Error("task has " + std::to_string(task.size()) + " coordinates but d = " + std::to_string(d_));
  }
  task_ = VecD::Zero(d_);
  for (std::size_t i = 0; i < task.size(); ++i) task_(static_cast<Index>(i)) = task[i];
  if (params.str("basis") == "identity") {
    Q_ = MatD::Identity(d_, d_);
  } else {
    Q_ = random_orthogonal<MatD>(context.rng, d_);
  }
  root_ = Q_ * lambda_.cwiseSqrt().asDiagonal();
  w_test_ = Q_ * task_;
  slots_ = std::max(context_, shots_);
}

double IclLinearRegression::dimension(const Params& params) {
  // (slots + 1) × (d + 1), slots = max(context, shots), d = the number of eigenvalues.
  const double slots = double(std::max(params.integer("context"), params.integer("shots")));
  return (slots + 1) * (double(params.reals("eigenvalues").size()) + 1);
}

DataSpec IclLinearRegression::spec() const {
  DataSpec s;
  s.dim = (slots_ + 1) * (d_ + 1);
  s.classes = 2;
  s.target_cols = 1;
  s.shape.dims = {slots_ + 1, d_ + 1};
  return s;
}

void IclLinearRegression::sample(Index n, Split split, Rng& rng, Dataset& out) {
  const bool train = split == Split::Train;
  const Index filled = train ? context_ : shots_;
  out.resize(n, (slots_ + 1) * (d_ + 1), 1);
  out.classes = 2;
  out.shape.dims = {slots_ + 1, d_ + 1};
  out.X.setZero();
  VecD g(d_), w(d_), x(d_);
  for (Index i = 0; i < n; ++i) {
    if (train) {
      for (Index j = 0; j < d_; ++j) w(j) = rng.normal();
    } else {
      w = w_test_;
    }
    for (Index t = 0; t <= filled; ++t) {
      for (Index j = 0; j < d_; ++j) g(j) = rng.normal();
      x = root_ * g;
      const Index slot = t < filled ? t : slots_;  // the query goes to the last slot
      out.X.row(i).segment(slot * (d_ + 1), d_) = x.cast<Scalar>().transpose();
      const double label = w.dot(x);
      if (t < filled) {
        out.X(i, slot * (d_ + 1) + d_) = static_cast<Scalar>(label + (train ? 0.0 : sigma_ * rng.normal()));
      } else {
        out.T(i, 0) = static_cast<Scalar>(label);
        out.y(i) = label > 0 ? 1 : 0;
      }
    }
  }
}

FeatureSet IclLinearRegression::features() const {
  Mat prompt(1, 3);
  prompt << static_cast<Scalar>(context_), static_cast<Scalar>(shots_), static_cast<Scalar>(sigma_);
  return {{"basis", Q_.transpose().cast<Scalar>()},
          {"eigenvalues", lambda_.transpose().cast<Scalar>()},
          {"task", task_.transpose().cast<Scalar>()},
          {"prompt", prompt}};
}

}  // namespace featurelab::fourier_icl_pack
