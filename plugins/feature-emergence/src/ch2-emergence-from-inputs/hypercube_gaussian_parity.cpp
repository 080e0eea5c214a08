// The random orthonormal directions, the signs of every sample, then noise plus one GEMM.
#include "hypercube_gaussian_parity.hpp"

#include <featurelab/error.hpp>
#include <featurelab/linalg.hpp>

#include <cmath>

namespace featurelab::feature_emergence_pack {

namespace {

// Row c of the sign matrix of all 2^k vertices: s_i = −1 iff bit i of c is set.
Mat vertex_signs(int k) {
  const Index count = Index(1) << k;
  Mat S(count, k);
  for (Index c = 0; c < count; ++c) {
    for (int i = 0; i < k; ++i) S(c, i) = ((c >> i) & 1) ? Scalar(-1) : Scalar(1);
  }
  return S;
}

}  // namespace

Schema HypercubeGaussianParity::schema() {
  Schema s;
  s.integer("dim", 100, "d: the input dimension").min(1);
  s.integer("k", 4, "k: the hypercube's dimension, 2^k clusters (k <= dim; at most 16 so the 2^k centres stay small)")
      .range(1, 16);
  s.real("sigma_r", 1.0, "σ_r: g ~ N(0, σ_r² (k/d) I_d), so E‖g‖² = σ_r² k = σ_r² ‖centre‖²").min(0);
  return s;
}

HypercubeGaussianParity::HypercubeGaussianParity(const Params& params, Context& context)
    : d_(params.integer("dim")), k_(static_cast<int>(params.integer("k"))) {
  if (k_ > d_) {
    throw Error("k = " + std::to_string(k_) + " exceeds dim = " + std::to_string(d_) +
                ": M needs k orthonormal columns in R^d; raise dim or lower k");
  }
  noise_std_ = params.real("sigma_r") * std::sqrt(static_cast<double>(k_) / static_cast<double>(d_));
  M_ = random_orthonormal(context.rng, d_, k_).transpose().cast<Scalar>();
}

double HypercubeGaussianParity::dimension(const Params& params) {
  return double(params.integer("dim"));
}

DataSpec HypercubeGaussianParity::spec() const {
  DataSpec s;
  s.dim = d_;
  s.classes = 2;
  s.meta = {"cluster"};
  return s;
}

FeatureSet HypercubeGaussianParity::features() const {
  const Mat S = vertex_signs(k_);
  Mat labels(1, S.rows());
  for (Index c = 0; c < S.rows(); ++c) labels(0, c) = S.row(c).prod();
  return {{"centres", S * M_}, {"directions", M_}, {"centre_labels", labels}};
}

void HypercubeGaussianParity::sample(Index n, Split, Rng& rng, Dataset& out) {
  out.resize(n, d_);
  out.classes = 2;
  VecD& cluster = out.meta["cluster"];
  cluster.resize(n);
  Mat eps(n, k_);
  for (Index i = 0; i < n; ++i) {
    std::int64_t vertex = 0, negatives = 0;
    for (int j = 0; j < k_; ++j) {
      const bool minus = rng.uniform() < 0.5;
      eps(i, j) = minus ? Scalar(-1) : Scalar(1);
      vertex |= static_cast<std::int64_t>(minus) << j;
      negatives += minus;
    }
    cluster(i) = static_cast<double>(vertex);
    out.y(i) = negatives % 2 == 0 ? 1 : 0;  // Π ε_i = +1 iff an even number of −1
  }
  if (noise_std_ > 0) {
    rng.fill_normal(out.X, noise_std_);
  } else {
    out.X.setZero();  // σ_r = 0: the bare vertices
  }
  out.X.noalias() += eps * M_;
}

}  // namespace featurelab::feature_emergence_pack
