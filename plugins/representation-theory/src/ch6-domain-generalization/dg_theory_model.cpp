// Sampling of dg-theory-model: uniform magnitudes, then the signs, whole matrices at a time.
#include "dg_theory_model.hpp"
#include "dg_features.hpp"

#include <featurelab/error.hpp>

#include <string>

namespace featurelab::representation_theory_pack {

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

}  // namespace featurelab::representation_theory_pack
