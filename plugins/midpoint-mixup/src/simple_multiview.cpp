// Def. 3.1: two orthonormal features per class with mirrored coefficients (β and 1 − β).
#include "simple_multiview.hpp"
#include "feature_basis.hpp"

#include <featurelab/error.hpp>

namespace featurelab::midpoint_mixup_pack {

Schema SimpleMultiview::schema() {
  Schema s;
  s.integer("classes", 10, "number of classes k").min(2);
  s.integer("dim", Automatic{"2k (the span of the features: an exact reduction)"}, "input dimension d").min(1);
  s.real("beta_low", 0.1, "lower end of β's uniform range").range(0, 1);
  s.real("beta_high", 0.9, "upper end of β's uniform range").range(0, 1);
  declare_feature_basis(s);
  return s;
}

SimpleMultiview::SimpleMultiview(const Params& params, Context& context)
    : classes_(static_cast<int>(params.integer("classes"))), low_(params.real("beta_low")), high_(params.real("beta_high")) {
  if (low_ > high_) {
    throw Error("beta_low = " + std::to_string(low_) + " exceeds beta_high = " + std::to_string(high_) + "; swap them");
  }
  const Index dim = params.integer_or_auto("dim").value_or(2 * classes_);
  views_ = make_feature_basis(params.str("features"), classes_, dim, context.rng);
}

double SimpleMultiview::dimension(const Params& params) {
  return double(params.integer_or_auto("dim").value_or(2 * params.integer("classes")));
}

DataSpec SimpleMultiview::spec() const {
  DataSpec s;
  s.dim = views_.cols();
  s.classes = classes_;
  s.meta = {"beta"};
  return s;
}

FeatureSet SimpleMultiview::features() const { return feature_set(views_); }

void SimpleMultiview::sample(Index n, Split, Rng& rng, Dataset& out) {
  out.resize(n, views_.cols());
  out.classes = classes_;
  VecD& beta = out.meta["beta"];
  beta.resize(n);
  for (Index i = 0; i < n; ++i) {
    const auto y = static_cast<Index>(rng.integer(0, classes_ - 1));
    const double b = rng.uniform(low_, high_);
    out.y(i) = static_cast<std::int32_t>(y);
    beta(i) = b;
    out.X.row(i) = static_cast<Scalar>(b) * views_.row(2 * y) + static_cast<Scalar>(1 - b) * views_.row(2 * y + 1);
  }
}

}  // namespace featurelab::midpoint_mixup_pack
