// Labels, the signal along w*, then the Gaussian part projected off w* for the whole split at once.
#include "linear_separable.hpp"

#include <featurelab/error.hpp>

#include <cmath>

namespace featurelab::feature_emergence_pack {

Schema LinearSeparable::schema() {
  Schema s;
  s.integer("dim", 20, "d: the input dimension").min(1);
  s.real("margin", 0.5, "β: the margin, y⟨w*, x⟩ = β + |u| >= β").above(0);
  s.real("noise", 1.0, "the orthogonal part is P_⊥ z with z ~ N(0, noise² I_d)").min(0);
  s.boolean("balanced", false, "exactly ⌈n/2⌉ labels +1 (in random order) instead of i.i.d. equiprobable labels");
  return s;
}

LinearSeparable::LinearSeparable(const Params& params, Context& context)
    : d_(params.integer("dim")),
      margin_(params.real("margin")),
      noise_(params.real("noise")),
      balanced_(params.boolean("balanced")),
      w_(1, params.integer("dim")) {
  context.rng.fill_normal(w_);
  const double norm = static_cast<double>(w_.norm());
  if (!(norm > 0)) throw Error("linear-separable: the drawn w* has norm 0; use another seed");
  w_ /= static_cast<Scalar>(norm);
}

double LinearSeparable::dimension(const Params& params) {
  return double(params.integer("dim"));
}

DataSpec LinearSeparable::spec() const {
  DataSpec s;
  s.dim = d_;
  s.classes = 2;
  return s;
}

void LinearSeparable::sample(Index n, Split, Rng& rng, Dataset& out) {
  out.resize(n, d_);
  out.classes = 2;
  if (balanced_) {
    const std::vector<Index> order = rng.permutation(n);
    for (Index i = 0; i < n; ++i) out.y(order[static_cast<std::size_t>(i)]) = i % 2 == 0 ? 1 : 0;
  } else {
    for (Index i = 0; i < n; ++i) out.y(i) = rng.uniform() < 0.5 ? 1 : 0;
  }
  Vec signal(n);  // y (β + |u|)
  for (Index i = 0; i < n; ++i) {
    signal(i) = static_cast<Scalar>((out.y(i) == 1 ? 1.0 : -1.0) * (margin_ + std::abs(rng.normal())));
  }
  if (noise_ > 0) {
    rng.fill_normal(out.X, noise_);
    const Vec along = out.X * w_.transpose();  // ⟨z, w*⟩
    out.X.noalias() -= along * w_;             // P_⊥ z
  } else {
    out.X.setZero();
  }
  out.X.noalias() += signal * w_;
}

}  // namespace featurelab::feature_emergence_pack
