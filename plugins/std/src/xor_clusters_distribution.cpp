// XOR clusters (Frei, Chatterji & Bartlett 2022, §2.1): cluster k uniform over (+μ1, −μ1, +μ2, −μ2),
// clean label +1 for ±μ1 and −1 for ±μ2, x = c_k + z with E[zzᵀ] = σ²I, then label flips.
#include "xor_clusters_distribution.hpp"

#include <cmath>

namespace featurelab::std_pack {

Schema XorClustersDistribution::schema() {
  Schema s;
  s.integer("dim", 2, "input dimension d").min(2);
  s.real("sigma", Automatic{"1/(5√d), i.e. σ² = 1/(25d) as in Figure 1"}, "noise std per coordinate").above(0);
  s.choice("noise", "gaussian", {"gaussian", "uniform-cube", "laplace"},
           "cluster noise, each log-concave with covariance σ²I: N(0, σ²I), U[−√3σ, √3σ]^d, Laplace(σ/√2)^d");
  s.real("label_noise", 0.0, "η: fraction of training labels flipped").range(0, 0.5);
  s.choice("noise_mode", "bernoulli", {"bernoulli", "exact"},
           "bernoulli: each label flips with probability η; exact: exactly round(η n) labels, chosen at random");
  s.boolean("noisy_test", true, "flip test labels too (Theorem 3.1 measures test error under the noisy law)");
  return s;
}

XorClustersDistribution::XorClustersDistribution(const Params& params, Context&)
    : dim_(params.integer("dim")),
      sigma_(params.real_or_auto("sigma").value_or(1.0 / (5.0 * std::sqrt(double(params.integer("dim")))))),
      noise_(params.str("noise")),
      label_noise_(params.real("label_noise")),
      noise_mode_(params.str("noise_mode")),
      noisy_test_(params.boolean("noisy_test")) {}

double XorClustersDistribution::dimension(const Params& params) {
  return double(params.integer("dim"));
}

DataSpec XorClustersDistribution::spec() const {
  DataSpec s;
  s.dim = dim_;
  s.classes = 2;
  s.meta = {"cluster", "y_clean", "is_noisy"};
  return s;
}

FeatureSet XorClustersDistribution::features() const {
  Mat means = Mat::Zero(2, dim_);
  means(0, 0) = 1;
  means(1, 1) = 1;
  Mat centres = Mat::Zero(4, dim_);
  centres(0, 0) = 1;
  centres(1, 0) = -1;
  centres(2, 1) = 1;
  centres(3, 1) = -1;
  return {{"means", means}, {"centres", centres}};
}

void XorClustersDistribution::sample(Index n, Split split, Rng& rng, Dataset& out) {
  out.resize(n, dim_);
  out.classes = 2;
  VecD& cluster = out.meta["cluster"];
  VecD& clean = out.meta["y_clean"];
  VecD& noisy = out.meta["is_noisy"];
  cluster.resize(n);
  clean.resize(n);
  noisy.setZero(n);
  if (noise_ == "gaussian") {
    rng.fill_normal(out.X, sigma_);
  } else if (noise_ == "uniform-cube") {
    rng.fill_uniform(out.X, -std::sqrt(3.0) * sigma_, std::sqrt(3.0) * sigma_);
  } else {
    // Laplace(b) with b = σ/√2 has variance σ²: inverse CDF of a uniform.
    const double b = sigma_ / std::sqrt(2.0);
    for (Index i = 0; i < n; ++i) {
      for (Index j = 0; j < dim_; ++j) {
        const double u = rng.uniform() - 0.5;
        out.X(i, j) = static_cast<Scalar>(-b * (u < 0 ? -1.0 : 1.0) * std::log(1.0 - 2.0 * std::abs(u)));
      }
    }
  }
  for (Index i = 0; i < n; ++i) {
    const auto k = rng.integer(0, 3);
    cluster(i) = static_cast<double>(k);
    const Index axis = k < 2 ? 0 : 1;
    out.X(i, axis) += (k % 2 == 0) ? Scalar(1) : Scalar(-1);
    const std::int32_t y = k < 2 ? 1 : 0;
    clean(i) = y;
    out.y(i) = y;
  }
  if (label_noise_ <= 0 || (split == Split::Test && !noisy_test_)) return;
  if (noise_mode_ == "exact") {
    const auto flips = static_cast<Index>(std::llround(label_noise_ * static_cast<double>(n)));
    std::vector<Index> order = rng.permutation(n);
    for (Index f = 0; f < flips; ++f) noisy(order[static_cast<std::size_t>(f)]) = 1;
  } else {
    for (Index i = 0; i < n; ++i) noisy(i) = rng.bernoulli(label_noise_) ? 1 : 0;
  }
  for (Index i = 0; i < n; ++i) {
    if (noisy(i) > 0) out.y(i) = 1 - out.y(i);
  }
}

}  // namespace featurelab::std_pack
