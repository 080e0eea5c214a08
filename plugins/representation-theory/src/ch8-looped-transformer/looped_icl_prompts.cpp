#include "looped_icl_prompts.hpp"
#include "prompt_layout.hpp"

#include <featurelab/error.hpp>

namespace featurelab::representation_theory_pack {

Schema LoopedIclPrompts::schema() {
  Schema s;
  s.integer("n", 16, "in-context examples per prompt (the chapter: 16, 32, 64, 128; n > d)").min(2);
  s.integer("d", 4, "feature dimension (the chapter: 4)").min(1);
  s.real("alpha", 1.0, "the query α ≠ 0 in the prompt's last row (the chapter leaves it open; errors scale with |α|)");
  return s;
}

LoopedIclPrompts::LoopedIclPrompts(const Params& params, Context&)
    : n_(params.integer("n")), d_(params.integer("d")), alpha_(params.real("alpha")) {
  if (n_ <= d_) {
    throw Error("looped-icl-prompts: n = " + std::to_string(n_) + " examples in d = " + std::to_string(d_) +
                " dimensions make XᵀX singular or nearly so (the chapter assumes n > d); raise data.n above " +
                std::to_string(d_));
  }
  if (alpha_ == 0) throw Error("looped-icl-prompts: alpha must be nonzero (Def. 8.4: the query α ≠ 0); use e.g. 1");
  for (Index i = 0; i < n_; ++i) meta_.push_back(label_column(i));
  meta_.push_back(kAlphaColumn);
  for (Index j = 0; j < d_; ++j) meta_.push_back(task_column(j));
}

double LoopedIclPrompts::dimension(const Params& params) {
  return (double(params.integer("n")) + 1) * (double(params.integer("d")) + 1);
}

DataSpec LoopedIclPrompts::spec() const {
  DataSpec s;
  s.dim = (n_ + 1) * (d_ + 1);
  s.classes = 0;  // a regression prompt: no class labels
  s.target_cols = d_;
  s.shape.dims = {n_ + 1, d_ + 1};
  s.meta = meta_;
  return s;
}

void LoopedIclPrompts::sample(Index count, Split, Rng& rng, Dataset& out) {
  out.resize(count, (n_ + 1) * (d_ + 1), d_);
  out.classes = 0;
  out.shape.dims = {n_ + 1, d_ + 1};
  out.X.setZero();  // q^(0) = 0
  out.y.setZero();
  MatD labels(count, n_), tasks(count, d_);  // the exact doubles, written to the meta columns at the end
  MatD X(n_, d_);
  VecD theta(d_);
  for (Index s = 0; s < count; ++s) {
    // Each x_ij is drawn in double and rounded to Scalar once, so the dataset's X and the double prompt agree exactly.
    for (Index k = 0; k < X.size(); ++k) X.data()[k] = static_cast<double>(static_cast<Scalar>(rng.normal()));
    // θ* uniform on the sphere: a standard Gaussian, normalised (the normal law is rotation invariant).
    do {
      for (Index j = 0; j < d_; ++j) theta(j) = rng.normal();
    } while (theta.norm() == 0);
    theta.normalize();
    const VecD y = X * theta;
    Eigen::Map<Mat> Z(out.X.row(s).data(), n_ + 1, d_ + 1);
    Z.topLeftCorner(n_, d_) = X.cast<Scalar>();
    Z.col(d_).head(n_) = y.cast<Scalar>();
    Z(n_, d_) = static_cast<Scalar>(alpha_);
    out.T.row(s) = (alpha_ * theta).transpose().cast<Scalar>();
    labels.row(s) = y.transpose();
    tasks.row(s) = theta.transpose();
  }
  for (Index i = 0; i < n_; ++i) out.meta[label_column(i)] = labels.col(i);
  out.meta[kAlphaColumn] = VecD::Constant(count, alpha_);
  for (Index j = 0; j < d_; ++j) out.meta[task_column(j)] = tasks.col(j);
}

}  // namespace featurelab::representation_theory_pack
