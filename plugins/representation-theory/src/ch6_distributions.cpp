// Sampling of chapter 6's distributions: uniform magnitudes, then the signs, whole matrices at a time.
#include "ch6_distributions.hpp"

#include <featurelab/error.hpp>

#include <cmath>
#include <string>

namespace representation_theory {

using namespace featurelab;

namespace {

// Labels y ∈ {0, 1} (class 1 = +1), P(y = 1) = ½.
void draw_labels(Index n, Rng& rng, Dataset& out) {
  for (Index i = 0; i < n; ++i) out.y(i) = rng.bernoulli(0.5) ? 1 : 0;
}

FeatureSet ood_features(const Dataset& ood) {
  FeatureSet f;
  f["ood_inputs"] = ood.X;
  Mat labels(1, ood.size());
  for (Index i = 0; i < ood.size(); ++i) labels(0, i) = static_cast<Scalar>(ood.y(i));
  f["ood_labels"] = labels;
  return f;
}

}  // namespace

Schema DgTheoryModel::schema() {
  Schema s;
  s.integer("r", 49, "number of invariant features |R| (Prop. 6.3 needs γ > 3/√r, so r ≥ 37)").min(1);
  s.integer("d", 300, "number of features; d − r are environmental (Prop. 6.3: d > r/γ² + r)").min(2);
  s.real("gamma", 0.45, "γ: the environmental features' label correlation in-domain (−γ out-of-domain)").above(-0.5).below(0.5);
  s.integer("ood", 3000, "size of the out-of-domain test set (features ood_inputs / ood_labels)").min(1);
  return s;
}

DgTheoryModel::DgTheoryModel(const Params& params, Context& context)
    : r_(params.integer("r")), d_(params.integer("d")), gamma_(params.real("gamma")) {
  if (r_ >= d_) {
    throw Error("dg-theory-model: r = " + std::to_string(r_) + " invariant features need d > r (d = " +
                std::to_string(d_) + "); raise d or lower r");
  }
  invariant_.assign(static_cast<std::size_t>(d_), false);
  const auto order = context.rng.permutation(d_);
  for (Index j = 0; j < r_; ++j) invariant_[static_cast<std::size_t>(order[static_cast<std::size_t>(j)])] = true;
  draw(params.integer("ood"), -gamma_, context.rng, ood_);
}

double DgTheoryModel::dimension(const Params& params) {
  return double(params.integer("d"));
}

DataSpec DgTheoryModel::spec() const {
  DataSpec s;
  s.dim = d_;
  s.classes = 2;
  return s;
}

void DgTheoryModel::draw(Index n, double gamma, Rng& rng, Dataset& out) const {
  out.resize(n, d_);
  out.classes = 2;
  draw_labels(n, rng, out);
  // z = magnitude·sign; invariant coordinates are non-negative, environmental ones positive w.p. ½ + γ.
  rng.fill_uniform(out.X, 0.0, 1.0);
  for (Index i = 0; i < n; ++i) {
    const Scalar y = signed_label(out.y(i));
    for (Index j = 0; j < d_; ++j) {
      const bool positive = invariant_[static_cast<std::size_t>(j)] || rng.bernoulli(0.5 + gamma);
      out.X(i, j) *= positive ? y : -y;  // z̃ = z·y
    }
  }
}

void DgTheoryModel::sample(Index n, Split, Rng& rng, Dataset& out) { draw(n, gamma_, rng, out); }

FeatureSet DgTheoryModel::features() const {
  FeatureSet f = ood_features(ood_);
  Mat mask(1, d_);
  for (Index j = 0; j < d_; ++j) mask(0, j) = invariant_[static_cast<std::size_t>(j)] ? 1 : 0;
  f["invariant"] = mask;
  return f;
}

Schema DgToy2d::schema() {
  Schema s;
  s.real("p_agree", 0.7, "in-domain probability that sign(x2) = y (the paper's Ber(0.7))").range(0, 1);
  s.real("p_agree_ood", 0.3, "out-of-domain probability that sign(x2) = y").range(0, 1);
  s.real("x2_scale", 1.0, "|x2| ~ x2_scale·U[0,1] (the paper: 1)").above(0);
  s.integer("ood", 20000, "size of the out-of-domain test set (features ood_inputs / ood_labels)").min(1);
  return s;
}

DgToy2d::DgToy2d(const Params& params, Context& context)
    : p_id_(params.real("p_agree")), p_ood_(params.real("p_agree_ood")), x2_scale_(params.real("x2_scale")) {
  draw(params.integer("ood"), p_ood_, context.rng, ood_);
}

double DgToy2d::dimension(const Params&) {  // the plane
  return 2;
}

DataSpec DgToy2d::spec() const {
  DataSpec s;
  s.dim = 2;
  s.classes = 2;
  return s;
}

void DgToy2d::draw(Index n, double p_agree, Rng& rng, Dataset& out) const {
  out.resize(n, 2);
  out.classes = 2;
  draw_labels(n, rng, out);
  rng.fill_uniform(out.X, 0.0, 1.0);
  for (Index i = 0; i < n; ++i) {
    const Scalar y = signed_label(out.y(i));
    out.X(i, 0) *= y;
    out.X(i, 1) *= static_cast<Scalar>(x2_scale_) * (rng.bernoulli(p_agree) ? y : -y);
  }
}

void DgToy2d::sample(Index n, Split, Rng& rng, Dataset& out) { draw(n, p_id_, rng, out); }

FeatureSet DgToy2d::features() const { return ood_features(ood_); }

}  // namespace representation_theory
