// Drawing presences, labelling, and the analytic normalisation.
#include "dictionary_patterns.hpp"

#include <featurelab/error.hpp>
#include <featurelab/linalg.hpp>

#include <cmath>

namespace featurelab::feature_emergence_pack {

Schema DictionaryPatterns::schema() {
  Schema s;
  s.integer("dim", 500, "d, the input dimension").min(1);
  s.integer("patterns", 100, "D, the dictionary size (D <= d)").min(1);
  s.integer("relevant", 5, "k = |A|, the class-relevant patterns (a random k-subset)").min(1);
  s.choice("dictionary", "random-orthonormal", {"random-orthonormal", "identity"}, "M: orthonormal columns");
  s.choice("model", "parity-mixture", {"parity-mixture", "independent", "uniform"},
           "pattern presences: structured mixture, independent Bernoullis, or uniform (no input structure)");
  s.real("p_o", 0.5, "p_o: presence probability of a pattern outside A (mixture weight of the uniform part)").range(0, 1);
  s.real("p_relevant", 0.5, "independent model: presence probability of a pattern in A").range(0, 1);
  s.choice("label", "parity", {"parity", "threshold", "interval"}, "how the count of present relevant patterns labels");
  s.integers("interval", {20, 30}, "interval labelling: y = +1 iff the count is in [t1, t2]");
  s.real("negative_ratio", 0.0, "resample to this fraction of y = −1 (App. A.7.2: 0.8, 0.9); 0 = as drawn").range(0, 0.99);
  return s;
}

DictionaryPatterns::DictionaryPatterns(const Params& params, Context& context)
    : d_(params.integer("dim")),
      D_(params.integer("patterns")),
      k_(static_cast<int>(params.integer("relevant"))),
      model_(params.str("model")),
      label_(params.str("label")),
      p_o_(params.real("p_o")),
      p_a_(params.real("p_relevant")),
      negative_ratio_(params.real("negative_ratio")) {
  if (D_ > d_) throw Error("patterns = " + std::to_string(D_) + " exceeds dim = " + std::to_string(d_) + ": M needs orthonormal columns");
  if (k_ > D_) throw Error("relevant = " + std::to_string(k_) + " exceeds patterns = " + std::to_string(D_));
  if (label_ == "parity" && model_ == "parity-mixture" && k_ % 2 == 0) {
    throw Error("the parity mixture needs an odd k (its all-on block must be labelled +1); got relevant = " + std::to_string(k_));
  }
  if (model_ == "parity-mixture" && p_o_ >= 1) throw Error("parity-mixture needs p_o < 1");
  const auto interval = params.integers("interval");
  if (interval.size() != 2 || interval[0] > interval[1]) throw Error("interval must be [t1, t2] with t1 <= t2");
  t1_ = interval[0];
  t2_ = interval[1];
  // The dictionary: rows of M_ are the patterns M_jᵀ.
  if (params.str("dictionary") == "identity") {
    M_ = Mat::Zero(D_, d_);
    for (Index j = 0; j < D_; ++j) M_(j, j) = 1;
  } else {
    M_ = random_orthonormal(context.rng, d_, D_).transpose().cast<Scalar>();
  }
  basis_ = std::make_shared<const Mat>(M_);
  const auto order = context.rng.permutation(D_);
  in_a_.assign(static_cast<std::size_t>(D_), false);
  for (int i = 0; i < k_; ++i) {
    relevant_.push_back(static_cast<int>(order[static_cast<std::size_t>(i)]));
    in_a_[static_cast<std::size_t>(order[static_cast<std::size_t>(i)])] = true;
  }
  // E φ̃_j and Var φ̃_j: the mixture's marginals are ½ on A and p_o elsewhere (App. A.7.1); resampling the
  // classes changes those on A, and x = M(φ̃ − Eφ̃)/σ̃ is centred on the data actually drawn (§2.3).
  mean_.resize(D_);
  const double relevant_mean = negative_ratio_ > 0 ? resampled_relevant_mean() : -1;
  double variance = 0;
  for (Index j = 0; j < D_; ++j) {
    const bool a = in_a_[static_cast<std::size_t>(j)];
    double p = model_ == "uniform" ? 0.5 : model_ == "independent" ? (a ? p_a_ : p_o_) : (a ? 0.5 : p_o_);
    if (a && relevant_mean >= 0) p = relevant_mean;
    mean_(j) = p;
    variance += p * (1 - p);
  }
  if (variance <= 0) throw Error("every pattern is deterministic (variance 0): choose p_o, p_relevant in (0, 1)");
  scale_ = 1.0 / std::sqrt(variance);
}

double DictionaryPatterns::dimension(const Params& params) {
  return double(params.integer("dim"));
}

DataSpec DictionaryPatterns::spec() const {
  DataSpec s;
  s.dim = d_;
  s.classes = 2;
  s.meta = {"relevant_count"};
  return s;
}

FeatureSet DictionaryPatterns::features() const {
  Mat v = Mat::Zero(1, d_);
  Mat relevant = Mat::Zero(1, D_);
  double mu = 0;
  for (int j : relevant_) {
    v.row(0) += M_.row(j);
    relevant(0, j) = 1;
    mu += mean_(j);
  }
  // [σ̃, μ = Σ_{j∈A} E φ̃_j]: what Lemma 2.5's ground-truth network needs to undo the normalisation.
  Mat normalisation(1, 2);
  normalisation << static_cast<Scalar>(1.0 / scale_), static_cast<Scalar>(mu);
  return {{"ground_truth", v}, {"dictionary", M_}, {"relevant", relevant}, {"normalisation", normalisation}};
}

void DictionaryPatterns::draw_patterns(Rng& rng, std::vector<int>& on) const {
  on.assign(static_cast<std::size_t>(D_), 0);
  if (model_ == "parity-mixture" && rng.uniform() >= p_o_) {
    // D1: the relevant block all off or all on; the others Bernoulli(p_o / (2 − 2 p_o)).
    const int block = rng.uniform() < 0.5 ? 1 : 0;
    const double q = p_o_ / (2 - 2 * p_o_);
    for (Index j = 0; j < D_; ++j) on[static_cast<std::size_t>(j)] = in_a_[static_cast<std::size_t>(j)] ? block : (rng.uniform() < q);
    return;
  }
  for (Index j = 0; j < D_; ++j) {
    const bool a = in_a_[static_cast<std::size_t>(j)];
    const double p = model_ == "independent" ? (a ? p_a_ : p_o_) : 0.5;  // D0 of the mixture is uniform
    on[static_cast<std::size_t>(j)] = rng.uniform() < p;
  }
}

bool DictionaryPatterns::label_of(const std::vector<int>& on) const {
  int count = 0;
  for (int j : relevant_) count += on[static_cast<std::size_t>(j)];
  return label_of_count(count);
}

bool DictionaryPatterns::label_of_count(int count) const {
  if (label_ == "parity") return count % 2 == 1;
  if (label_ == "threshold") return 2 * count > k_;
  return count >= t1_ && count <= t2_;
}

double DictionaryPatterns::resampled_relevant_mean() const {
  // c = the number of relevant patterns present: Bin(k, p) under the independent and uniform models; under the
  // mixture Bin(k, ½) with weight p_o, else 0 or k (½ each). Every model treats A's members alike, so
  // P(φ̃_j = 1, c) = (c/k)·P(c) for j ∈ A.
  const auto binomial = [this](int c, double p) {
    return std::exp(std::lgamma(k_ + 1.0) - std::lgamma(c + 1.0) - std::lgamma(k_ - c + 1.0)) * std::pow(p, c) *
           std::pow(1 - p, k_ - c);
  };
  double on_and[2] = {0, 0}, share[2] = {0, 0};  // indexed by y ∈ {0, 1}
  for (int c = 0; c <= k_; ++c) {
    double pc = model_ == "independent" ? binomial(c, p_a_) : model_ == "uniform" ? binomial(c, 0.5) : p_o_ * binomial(c, 0.5);
    if (model_ == "parity-mixture" && (c == 0 || c == k_)) pc += (1 - p_o_) / 2;
    const int y = label_of_count(c) ? 1 : 0;
    share[y] += pc;
    on_and[y] += pc * c / k_;
  }
  if (share[0] <= 0 || share[1] <= 0) {
    throw Error("dictionary-patterns: negative_ratio = " + std::to_string(negative_ratio_) + " needs both classes, but this "
                "model and labelling give y = " + (share[0] <= 0 ? "−1" : "+1") + " probability 0; set negative_ratio = 0");
  }
  return negative_ratio_ * on_and[0] / share[0] + (1 - negative_ratio_) * on_and[1] / share[1];
}

void DictionaryPatterns::sample(Index n, Split, Rng& rng, Dataset& out) {
  out.resize(n, d_);
  out.classes = 2;
  VecD count(n);
  Mat phi(n, D_);
  std::vector<int> on;
  const Index negatives = negative_ratio_ > 0 ? static_cast<Index>(std::llround(negative_ratio_ * double(n))) : -1;
  Index have_neg = 0, have_pos = 0, i = 0, tries = 0;
  while (i < n) {
    if (++tries > 1000 * n + 100000) {
      throw Error("dictionary-patterns: negative_ratio = " + std::to_string(negative_ratio_) +
                  " could not be met by resampling (one class is too rare); lower it");
    }
    draw_patterns(rng, on);
    const bool plus = label_of(on);
    if (negatives >= 0 && (plus ? have_pos >= n - negatives : have_neg >= negatives)) continue;
    (plus ? have_pos : have_neg)++;
    int c = 0;
    for (Index j = 0; j < D_; ++j) phi(i, j) = static_cast<Scalar>(on[static_cast<std::size_t>(j)] - mean_(j));
    for (int j : relevant_) c += on[static_cast<std::size_t>(j)];
    out.y(i) = plus ? 1 : 0;
    count(i) = c;
    ++i;
  }
  out.X.noalias() = static_cast<Scalar>(scale_) * phi * M_;  // one GEMM for the whole split
  out.meta["relevant_count"] = count;
  out.codes = static_cast<Scalar>(scale_) * phi;  // X = codes·M, to rounding
  out.code_basis = basis_;
}

}  // namespace featurelab::feature_emergence_pack
