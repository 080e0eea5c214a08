// Centres, the partition and sampling. Near-orthogonal centres (App. E.1 gives no construction):
// μ_j = √d (√(1−κ) e_j + √κ e_{k+1}), so ‖μ_j‖ = √d and ⟨μ_i, μ_j⟩ = κ d, in the standard basis or
// in a random orthonormal one (the problem is rotation invariant for ℓ2 attacks and isotropic
// noise, so the basis changes nothing but coordinate-wise views).
#include "orthogonal_clusters_distribution.hpp"

#include <featurelab/error.hpp>
#include <featurelab/linalg.hpp>

#include <cmath>

namespace featurelab::feature_averaging_pack {

Schema OrthogonalClustersDistribution::schema() {
  Schema s;
  s.integer("clusters", 10, "k, the number of clusters").min(2);
  s.integer("dim", 3072, "d, the input dimension").min(2);
  s.real("alpha", 1.0, "α, the signal scale: x = α μ_j + σ ξ").above(0);
  s.real("sigma", 1.0, "σ, the noise scale").min(0);
  s.integers("positive", {}, "J+, the clusters of the + side (0-based); empty = the first half");
  s.choice("basis", "standard", {"standard", "random-orthogonal"}, "centres along e_j, or in a random orthonormal basis");
  s.real("pairwise_cos", 0.0, "κ, the cosine between any two centres (App. E.1, Fig. 9)").range(0, 0.99);
  s.choice("sampling", "iid", {"iid", "balanced"}, "cluster of each sample: uniform i.i.d. (the paper), or n/k each");
  s.choice("label", "binary", {"binary", "cluster"}, "binary side (class 1 = +), or the cluster (k classes)");
  return s;
}

OrthogonalClustersDistribution::OrthogonalClustersDistribution(const Params& params, Context& context)
    : k_(static_cast<int>(params.integer("clusters"))),
      d_(params.integer("dim")),
      alpha_(params.real("alpha")),
      sigma_(params.real("sigma")),
      balanced_(params.str("sampling") == "balanced"),
      cluster_labels_(params.str("label") == "cluster") {
  const double kappa = params.real("pairwise_cos");
  const Index needed = kappa > 0 ? k_ + 1 : k_;
  if (d_ < needed) {
    throw Error("dim = " + std::to_string(d_) + " is too small for " + std::to_string(k_) + " orthogonal centres" +
                (kappa > 0 ? " plus the shared direction of pairwise_cos" : "") + "; use dim >= " + std::to_string(needed));
  }
  Mat basis = Mat::Zero(needed, d_);  // rows: orthonormal directions
  if (params.str("basis") == "standard") {
    for (Index j = 0; j < needed; ++j) basis(j, j) = 1;
  } else {
    basis = random_orthonormal(context.rng, d_, needed).transpose().cast<Scalar>();
  }
  const auto root_d = static_cast<Scalar>(std::sqrt(static_cast<double>(d_)));
  centres_.resize(k_, d_);
  for (Index j = 0; j < k_; ++j) {
    centres_.row(j) = static_cast<Scalar>(std::sqrt(1 - kappa)) * basis.row(j);
    if (kappa > 0) centres_.row(j) += static_cast<Scalar>(std::sqrt(kappa)) * basis.row(k_);
    centres_.row(j) *= root_d;
  }
  partition_ = Mat::Constant(1, k_, -1);
  const auto positive = params.integers("positive");
  if (positive.empty()) {
    partition_.leftCols(k_ / 2).setConstant(1);
  } else {
    for (auto j : positive) {
      if (j < 0 || j >= k_) {
        throw Error("positive lists cluster " + std::to_string(j) + ", outside 0.." + std::to_string(k_ - 1));
      }
      partition_(0, j) = 1;
    }
    if (static_cast<Index>((partition_.array() > 0).count()) == k_) throw Error("positive lists every cluster; leave some for the − side");
  }
}

double OrthogonalClustersDistribution::dimension(const Params& params) {
  return double(params.integer("dim"));
}

DataSpec OrthogonalClustersDistribution::spec() const {
  DataSpec s;
  s.dim = d_;
  s.classes = cluster_labels_ ? k_ : 2;
  s.meta = {"binary", "cluster"};
  return s;
}

FeatureSet OrthogonalClustersDistribution::features() const { return {{"centres", centres_}, {"partition", partition_}}; }

void OrthogonalClustersDistribution::sample(Index n, Split, Rng& rng, Dataset& out) {
  out.resize(n, d_);
  out.classes = cluster_labels_ ? k_ : 2;
  std::vector<Index> cluster(static_cast<std::size_t>(n));
  if (balanced_) {
    // n/k per cluster (the remainder spread over random clusters), in random order.
    const auto order = rng.permutation(n);
    const auto offset = rng.integer(0, k_ - 1);
    for (Index i = 0; i < n; ++i) cluster[static_cast<std::size_t>(order[static_cast<std::size_t>(i)])] = (i + offset) % k_;
  } else {
    for (auto& c : cluster) c = rng.integer(0, k_ - 1);
  }
  rng.fill_normal(out.X, sigma_);
  VecD binary(n), cluster_col(n);
  for (Index i = 0; i < n; ++i) {
    const Index j = cluster[static_cast<std::size_t>(i)];
    out.X.row(i) += static_cast<Scalar>(alpha_) * centres_.row(j);
    const bool plus = partition_(0, j) > 0;
    out.y(i) = static_cast<std::int32_t>(cluster_labels_ ? j : (plus ? 1 : 0));
    binary(i) = plus ? 1 : 0;
    cluster_col(i) = static_cast<double>(j);
  }
  out.meta["binary"] = binary;
  out.meta["cluster"] = cluster_col;
}

}  // namespace featurelab::feature_averaging_pack
