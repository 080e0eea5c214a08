// Gaussian mixture: means drawn once at construction (the component's stream), samples per call.
#include "distributions.hpp"

#include <featurelab/error.hpp>

#include <cmath>

namespace featurelab::std_pack {

Schema GaussianMixture::schema() {
  Schema s;
  s.integer("classes", 2, "number of classes k").min(2);
  s.integer("dim", 10, "input dimension D").min(1);
  s.choice("means", "orthogonal", {"orthogonal", "random"},
           "orthogonal: μ_c = mean_norm·e_c (needs dim >= classes); random: Gaussian directions");
  s.real("mean_norm", 1.0, "‖μ_c‖").above(0);
  s.real("sigma", 0.1, "noise standard deviation per coordinate").min(0);
  s.boolean("balanced", false, "exactly equal class counts (in random order) instead of i.i.d. labels");
  return s;
}

GaussianMixture::GaussianMixture(const Params& params, Context& context)
    : classes_(static_cast<int>(params.integer("classes"))),
      dim_(params.integer("dim")),
      sigma_(params.real("sigma")),
      balanced_(params.boolean("balanced")),
      means_(Mat::Zero(classes_, dim_)) {
  const double norm = params.real("mean_norm");
  if (params.str("means") == "orthogonal") {
    if (dim_ < classes_) {
      throw Error("means = \"orthogonal\" needs dim >= classes (" + std::to_string(classes_) + "), got dim = " +
                  std::to_string(dim_) + "; raise dim or use means = \"random\"");
    }
    for (int c = 0; c < classes_; ++c) means_(c, c) = static_cast<Scalar>(norm);
  } else {
    context.rng.fill_normal(means_);
    for (int c = 0; c < classes_; ++c) means_.row(c) *= static_cast<Scalar>(norm) / means_.row(c).norm();
  }
}

DataSpec GaussianMixture::spec() const {
  DataSpec s;
  s.dim = dim_;
  s.classes = classes_;
  return s;
}

void GaussianMixture::sample(Index n, Split, Rng& rng, Dataset& out) {
  out.resize(n, dim_);
  out.classes = classes_;
  if (balanced_) {
    std::vector<Index> order = rng.permutation(n);
    for (Index i = 0; i < n; ++i) out.y(order[static_cast<std::size_t>(i)]) = static_cast<std::int32_t>(i % classes_);
  } else {
    for (Index i = 0; i < n; ++i) out.y(i) = static_cast<std::int32_t>(rng.integer(0, classes_ - 1));
  }
  rng.fill_normal(out.X, sigma_);
  for (Index i = 0; i < n; ++i) out.X.row(i) += means_.row(out.y(i));
}

}  // namespace featurelab::std_pack
