// Gaussian inputs, the Hermite target from one GEMM with the directions, then Alg. 7's residual.
#include "multi_index_gaussian.hpp"

#include <featurelab/error.hpp>
#include <featurelab/linalg.hpp>

#include <cmath>

namespace featurelab::feature_emergence_pack {

Schema MultiIndexGaussian::schema() {
  Schema s;
  s.integer("dim", 50, "d: the input dimension").min(1);
  s.integer("r", 2, "r: the number of index directions u_i (orthonormal, random; r <= dim)").min(1);
  s.choice("residualize", "train", {"train", "all", "none"},
           "subtract ρ = mean g*, β·x with β = mean g*(x) x, computed on each drawn sample set (Alg. 7): on the "
           "training split only, on both splits, or not at all");
  return s;
}

MultiIndexGaussian::MultiIndexGaussian(const Params& params, Context& context)
    : d_(params.integer("dim")), r_(static_cast<int>(params.integer("r"))), residualize_(params.str("residualize")) {
  if (r_ > d_) {
    throw Error("r = " + std::to_string(r_) + " exceeds dim = " + std::to_string(d_) +
                ": the u_i must be linearly independent in R^d; raise dim or lower r");
  }
  U_ = random_orthonormal(context.rng, d_, r_).transpose().cast<Scalar>();
}

double MultiIndexGaussian::dimension(const Params& params) {
  return double(params.integer("dim"));
}

DataSpec MultiIndexGaussian::spec() const {
  DataSpec s;
  s.dim = d_;
  s.classes = 2;
  s.target_cols = 1;
  s.meta = {"g_star"};
  return s;
}

void MultiIndexGaussian::sample(Index n, Split split, Rng& rng, Dataset& out) {
  out.resize(n, d_, 1);
  out.classes = 2;
  rng.fill_normal(out.X);
  // g*(x) = Σ_i (⟨x, u_i⟩² − 1)/√(2r), in double.
  const MatD z = (out.X * U_.transpose()).cast<double>();  // n×r
  VecD& g = out.meta["g_star"];
  g = (z.array().square() - 1).rowwise().sum().matrix() / std::sqrt(2.0 * r_);
  VecD y = g;
  if (n > 0 && (residualize_ == "all" || (residualize_ == "train" && split == Split::Train))) {
    const MatD X = out.X.cast<double>();
    const double rho = g.mean();
    const VecD beta = X.transpose() * g / static_cast<double>(n);
    y = (g.array() - rho).matrix() - X * beta;
  }
  out.T.col(0) = y.cast<Scalar>();
  for (Index i = 0; i < n; ++i) out.y(i) = y(i) > 0 ? 1 : 0;
}

}  // namespace featurelab::feature_emergence_pack
