// Presets, the dictionary and the blocks, then the mixture drawn sample by sample and one GEMM.
#include "structured_parity.hpp"

#include <featurelab/error.hpp>
#include <featurelab/linalg.hpp>

#include <algorithm>
#include <cmath>

namespace featurelab::feature_emergence_pack {

namespace {

// A preset owns a key: left at its schema default it takes the preset's value; set to a third value
// it contradicts the preset, which is an error rather than a silent override.
void own(const std::string& preset, const std::string& key, bool set_elsewhere, const std::string& fixed) {
  if (set_elsewhere) {
    throw Error("preset = \"" + preset + "\" fixes " + key + " = " + fixed + "; remove " + key +
                " or set preset = \"none\"");
  }
}

}  // namespace

Schema StructuredParity::schema() {
  Schema s;
  s.choice("preset", "none", {"none", "daniely-malach", "uniform"},
           "none: the parameters below; daniely-malach: M = I, r = 1, p_a = 1/4, p_o = 1/2 (Prop. 3.23); uniform: "
           "M = I, r = 1, p_a = 0, p_o = 1/2, φ uniform on {±1}^d (B.5.5; admits even k)");
  s.integer("dim", 100, "d = D: the input dimension and the number of patterns (M is d×d)").min(1);
  s.integer("r", 1, "r: the number of relevant blocks A_j (odd)").min(1);
  s.integer("k", 5, "k = |A_j|: the block size (odd; even only with preset = \"uniform\")").min(1);
  s.real("p_a", 0.25, "p_A: the weight of each X_{j,+} and of each X_{j,−} (block j all +1 / all −1); 2 r p_A <= 1")
      .range(0, 0.5);
  s.real("p_o", 0.5, "p_o: a background φ_l (l ∉ A) is +1 and −1 with probability p_o each, else 0").range(0, 0.5);
  s.choice("dictionary", "random-orthonormal", {"random-orthonormal", "identity"}, "M: an orthonormal d×d dictionary");
  s.choice("relevant", "first", {"first", "random"},
           "A: the first rk patterns (the paper's WLOG), or a random rk-subset cut into blocks in drawn order");
  return s;
}

StructuredParity::StructuredParity(const Params& params, Context& context)
    : d_(params.integer("dim")),
      r_(static_cast<int>(params.integer("r"))),
      k_(static_cast<int>(params.integer("k"))),
      p_a_(params.real("p_a")),
      p_o_(params.real("p_o")),
      identity_(params.str("dictionary") == "identity") {
  const std::string preset = params.str("preset");
  if (preset != "none") {
    const Params defaults = Params::defaults(schema());
    const double p_a = preset == "uniform" ? 0.0 : 0.25;
    own(preset, "r", params.integer("r") != defaults.integer("r") && r_ != 1, "1");
    own(preset, "p_a", p_a_ != defaults.real("p_a") && p_a_ != p_a, preset == "uniform" ? "0" : "0.25");
    own(preset, "p_o", p_o_ != defaults.real("p_o") && p_o_ != 0.5, "0.5");
    identity_ = true;
    r_ = 1;
    p_a_ = p_a;
    p_o_ = 0.5;
  }
  if (r_ % 2 == 0) {
    throw Error("structured-parity needs an odd r (an even number of ±1 block parities can sum to 0); got r = " +
                std::to_string(r_));
  }
  if (k_ % 2 == 0 && preset != "uniform") {
    throw Error("structured-parity needs an odd k (X_{j,−} sets block j to −1, whose parity is −1 only for odd k); got k = " +
                std::to_string(k_) + ". Even k is B.5.5's uniform parity: set preset = \"uniform\"");
  }
  if (static_cast<Index>(r_) * k_ > d_) {
    throw Error("r·k = " + std::to_string(static_cast<Index>(r_) * k_) + " relevant patterns exceed dim = " +
                std::to_string(d_) + "; raise dim or lower r, k");
  }
  if (2 * r_ * p_a_ > 1 + 1e-12) {
    throw Error("p_a = " + std::to_string(p_a_) + " with r = " + std::to_string(r_) +
                " gives the uniform part the negative weight 1 − 2 r p_A; need p_a <= 1/(2r) = " + std::to_string(0.5 / r_));
  }
  // The dictionary: rows of M_ are the patterns M_lᵀ (drawn first, then A, from the component's stream).
  if (identity_) {
    M_ = Mat::Identity(d_, d_);
  } else {
    M_ = random_orthogonal<Eigen::MatrixXd>(context.rng, d_).transpose().cast<Scalar>();
  }
  std::vector<Index> order(static_cast<std::size_t>(d_));
  for (Index l = 0; l < d_; ++l) order[static_cast<std::size_t>(l)] = l;
  if (params.str("relevant") == "random") order = context.rng.permutation(d_);
  const auto rk = static_cast<std::size_t>(r_) * static_cast<std::size_t>(k_);
  a_.assign(order.begin(), order.begin() + static_cast<std::ptrdiff_t>(rk));
  off_.assign(order.begin() + static_cast<std::ptrdiff_t>(rk), order.end());
  std::sort(off_.begin(), off_.end());
}

double StructuredParity::dimension(const Params& params) {
  return double(params.integer("dim"));
}

DataSpec StructuredParity::spec() const {
  DataSpec s;
  s.dim = d_;
  s.classes = 2;
  s.meta = {"component"};
  return s;
}

FeatureSet StructuredParity::features() const {
  Mat directions = Mat::Zero(r_, d_);
  Mat blocks = Mat::Zero(r_, d_);
  Mat relevant = Mat::Zero(1, d_);
  Mat patterns(static_cast<Index>(a_.size()), d_);
  for (std::size_t i = 0; i < a_.size(); ++i) {
    const auto j = static_cast<Index>(i / static_cast<std::size_t>(k_));
    patterns.row(static_cast<Index>(i)) = M_.row(a_[i]);
    directions.row(j) += M_.row(a_[i]);
    blocks(j, a_[i]) = 1;
    relevant(0, a_[i]) = 1;
  }
  directions /= static_cast<Scalar>(std::sqrt(static_cast<double>(k_)));  // ‖Σ_{l∈A_j} M_l‖ = √k
  return {{"directions", directions}, {"dictionary", M_}, {"relevant", relevant}, {"blocks", blocks},
          {"patterns", patterns}};
}

void StructuredParity::sample(Index n, Split, Rng& rng, Dataset& out) {
  out.resize(n, d_);
  out.classes = 2;
  VecD& component = out.meta["component"];
  component.resize(n);
  Mat phi = Mat::Zero(n, d_);
  const auto k = static_cast<std::size_t>(k_);
  for (Index i = 0; i < n; ++i) {
    // One uniform picks the part: [0, 2 r p_A) is cut into the 2r parts X_{1,+}, X_{1,−}, …, X_{r,−}.
    const double u = rng.uniform();
    if (u < 2 * r_ * p_a_) {
      const auto part = std::min<std::int64_t>(2 * r_ - 1, static_cast<std::int64_t>(u / p_a_));
      const auto j = static_cast<std::size_t>(part / 2);
      const Scalar sign = part % 2 == 0 ? Scalar(1) : Scalar(-1);
      for (std::size_t l = j * k; l < (j + 1) * k; ++l) phi(i, a_[l]) = sign;
      component(i) = static_cast<double>(sign) * static_cast<double>(j + 1);
    } else {
      for (Index l : a_) phi(i, l) = rng.uniform() < 0.5 ? Scalar(1) : Scalar(-1);
      component(i) = 0;
    }
    for (Index l : off_) {
      const double v = rng.uniform();
      phi(i, l) = v < p_o_ ? Scalar(1) : v < 2 * p_o_ ? Scalar(-1) : Scalar(0);
    }
    // y = sign(Σ_j Π_{l∈A_j} φ_l): the products are exact (entries in {−1, 0, 1}) and the sum is never 0.
    int sum = 0;
    for (std::size_t j = 0; j < static_cast<std::size_t>(r_); ++j) {
      int product = 1;
      for (std::size_t l = j * k; l < (j + 1) * k; ++l) product *= static_cast<int>(phi(i, a_[l]));
      sum += product;
    }
    out.y(i) = sum > 0 ? 1 : 0;
  }
  if (identity_) {
    out.X = phi;
  } else {
    out.X.noalias() = phi * M_;  // x = Mφ for the whole split: one GEMM
  }
}

}  // namespace featurelab::feature_emergence_pack
