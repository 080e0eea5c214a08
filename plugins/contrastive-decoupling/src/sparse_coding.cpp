// The dictionary and its completion from one full QR (in double), the samples from one GEMM Z·M plus the
// noise drawn straight into X.
#include "sparse_coding.hpp"
#include "gaussian_noise.hpp"

#include <featurelab/error.hpp>
#include <featurelab/linalg.hpp>

#include <Eigen/QR>

#include <cmath>

namespace featurelab::contrastive_decoupling_pack {

namespace {
Index next_power_of_two(Index n) {
  Index p = 1;
  while (p < n) p *= 2;
  return p;
}
}  // namespace

Schema SparseCoding::schema() {
  Schema s;
  s.integer("d", 32, "d: the number of dictionary atoms (sparse features)").min(3);
  s.integer("d1", 512, "d1: the input dimension (d1 >= d; the theory has d1 = poly(d) ≫ d)").min(3);
  s.real("cz", 1.0, "C_z: p = Pr(z_j ≠ 0) = C_z ln ln d / d").above(0);
  s.real("noise", 1.0, "σ_ξ² = noise·√(ln d)/d (0: noiseless x = Mz)").min(0);
  s.choice("dictionary", "random-orthonormal", {"random-orthonormal", "hadamard", "identity"},
           "M: a random orthonormal basis (QR of a Gaussian matrix), d random columns of the normalised Hadamard "
           "matrix (d1 a power of 2, column 0 excluded), or the identity (an ablation: not delocalised)");
  return s;
}

SparseCoding::SparseCoding(const Params& params, Context& context)
    : d_(params.integer("d")), d1_(params.integer("d1")) {
  const double d = static_cast<double>(d_);
  if (d1_ < d_) {
    throw Error("d1 = " + std::to_string(d1_) + " is smaller than d = " + std::to_string(d_) +
                ": the dictionary's d orthonormal atoms need d1 >= d (the paper has d1 = poly(d)); raise d1");
  }
  p_ = params.real("cz") * std::log(std::log(d)) / d;
  if (p_ > 1) throw Error("cz = " + std::to_string(params.real("cz")) + " gives p = C_z ln ln d/d > 1; lower cz");
  sigma_xi2_ = params.real("noise") * std::sqrt(std::log(d)) / d;

  const std::string kind = params.str("dictionary");
  Eigen::MatrixXd basis(d1_, d_);  // columns M_j
  if (kind == "random-orthonormal") {
    basis = random_orthonormal(context.rng, d1_, d_);
  } else if (kind == "hadamard") {
    if ((d1_ & (d1_ - 1)) != 0 || d1_ <= d_) {
      throw Error("dictionary = \"hadamard\" needs d1 a power of 2 larger than d (Sylvester's construction; column 0 "
                  "is excluded), got d1 = " + std::to_string(d1_) + "; use d1 = " +
                  std::to_string(next_power_of_two(d1_ + 1)) + " or random-orthonormal");
    }
    // Columns 1..d1−1 in a random order; H(r, c) = (−1)^{popcount(r & c)} / √d1.
    std::vector<Index> cols = context.rng.permutation(d1_ - 1);
    for (Index j = 0; j < d_; ++j) {
      const auto c = static_cast<unsigned long long>(cols[static_cast<std::size_t>(j)] + 1);
      for (Index r = 0; r < d1_; ++r) {
        basis(r, j) = (__builtin_popcountll(static_cast<unsigned long long>(r) & c) % 2 ? -1.0 : 1.0) / std::sqrt(static_cast<double>(d1_));
      }
    }
  } else {
    basis = Eigen::MatrixXd::Identity(d1_, d_);
  }
  // The completion: the last d1 − d columns of the full Q of a QR of M (span(M) is the span of the first d).
  Eigen::HouseholderQR<Eigen::MatrixXd> full(basis);
  const Eigen::MatrixXd Q = full.householderQ();
  M_ = basis.transpose().cast<Scalar>();
  Mperp_ = Q.rightCols(d1_ - d_).transpose().cast<Scalar>();

  w_star_.resize(1, d_);
  for (Index j = 0; j < d_; ++j) {
    const double sign = context.rng.bernoulli(0.5) ? 1.0 : -1.0;
    w_star_(0, j) = static_cast<Scalar>(sign * context.rng.uniform(1.0, 2.0));
  }
  for (Index j = 0; j < d_; ++j) z_names_.push_back("z" + std::to_string(j));
}

double SparseCoding::dimension(const Params& params) {
  return double(params.integer("d1"));
}

DataSpec SparseCoding::spec() const {
  DataSpec s;
  s.dim = d1_;
  s.classes = 2;
  s.meta = z_names_;
  s.meta.push_back("active");
  s.meta.push_back("target");
  return s;
}

void SparseCoding::sample(Index n, Split, Rng& rng, Dataset& out) {
  out.resize(n, d1_);
  out.classes = 2;
  Z_.resize(n, d_);
  // Pr(z = +1) = Pr(z = −1) = p/2: one uniform per coordinate.
  for (Index i = 0; i < n; ++i) {
    for (Index j = 0; j < d_; ++j) {
      const double u = rng.uniform();
      Z_(i, j) = u < p_ / 2 ? Scalar(1) : (u < p_ ? Scalar(-1) : Scalar(0));
    }
  }
  fill_gaussian_noise(out.X, std::sqrt(sigma_xi2_), rng.engine()());
  out.X.noalias() += Z_ * M_;
  for (Index j = 0; j < d_; ++j) out.meta[z_names_[static_cast<std::size_t>(j)]] = Z_.col(j).cast<double>();
  out.meta["active"] = Z_.cwiseAbs().rowwise().sum().cast<double>();
  VecD& target = out.meta["target"];
  target = (Z_ * w_star_.transpose()).cast<double>();
  for (Index i = 0; i < n; ++i) out.y(i) = target(i) > 0 ? 1 : 0;
}

FeatureSet SparseCoding::features() const {
  Mat constants(1, 2);
  constants << static_cast<Scalar>(p_), static_cast<Scalar>(sigma_xi2_);
  return {{"dictionary", M_}, {"completion", Mperp_}, {"w_star", w_star_}, {"constants", constants}};
}

}  // namespace featurelab::contrastive_decoupling_pack
