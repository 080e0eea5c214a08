// Gaussian mixture: means drawn once at construction (the component's stream), samples per call.
//
// The plain k-class mixture x = μ_y + σξ, y uniform over the classes, is what every pipeline gets while
// the chapter-3 keys below stay at their defaults; its draws (labels, then the noise) and outputs are
// exactly those it had before they existed (no metadata column either).
//
// Chapter 3 of Shi 2024 (Sec. 3.4.1, App. B.5.2, after Refinetti et al. 2021) generalises it to r
// clusters, each with a class: q(x, y) = q(y) Σ_{j∈S(y)} p_j N(x; μ_j, σ_j² I). Here p_j is the
// probability of cluster j (`weights`, normalised to sum 1), so q(y) = Σ_{j∈S(y)} p_j; σ_j is the
// per-coordinate standard deviation (the dissertation writes Σ_j = σ_j I, but its proofs compare σ_j
// with the per-coordinate mean size ‖μ_j‖/√d and sample N(μ_j, σ_j² I), Eq. B.280). The theorem's
// assumptions (Assumption 3.15: equiprobable labels, p_j >= 1/(2d), well-separated D_j = μ_j/‖μ_j‖) are
// conditions of the guarantee, not of the sampler, and are not enforced. With `balanced` the cluster
// counts are exact (n p_j, largest remainders), in random order.
// preset = "xor4" is App. B.5.3, Assumption B.36 (Refinetti et al.'s XOR): r = 4, p_j = 1/4, μ_2 = −μ_1,
// μ_4 = −μ_3, ‖μ_j‖ = √d, ⟨μ_1, μ_3⟩ = 0 (μ_1 = √d e_1, μ_3 = √d e_2 with means = "orthogonal", a random
// orthonormal pair with means = "random"), σ_j = σ_B = sigma, y_(1) = y_(2) = +1 (class 1) and
// y_(3) = y_(4) = −1 (class 0), so E[yx] = 0: no linear signal. B.36 asks 1 <= σ_B <= √(d/(τ log log d));
// the default sigma = 0.1 lies far below, so set sigma (e.g. 1).
// means = "antipodal" places clusters 2l and 2l + 1 at ±mean_norm·e_l (r up to 2·dim; Assumption 3.15 allows
// ⟨D_i, D_j⟩ = −1), pair l of class l mod k unless cluster_labels says otherwise: xor4 generalised to r = 2d.
// Features: means (= centres, the name older pipelines read), centres (r×D), directions (r×D, μ_j/‖μ_j‖),
// cluster_classes (1×r class indices) and, for binary data, cluster_labels (1×r, ±1 with class 1 = +1).
// Meta: cluster (the index j) whenever a chapter-3 key is set.
#include "gaussian_mixture_distribution.hpp"

#include <featurelab/error.hpp>

#include <algorithm>
#include <cmath>
#include <numeric>

namespace featurelab::std_pack {

Schema GaussianMixtureDistribution::schema() {
  Schema s;
  s.integer("classes", 2, "number of classes k").min(2);
  s.integer("dim", 10, "input dimension D").min(1);
  s.choice("means", "orthogonal", {"orthogonal", "random", "antipodal"},
           "orthogonal: μ_c = mean_norm·e_c (needs dim >= classes); random: Gaussian directions; antipodal (chapter 3): "
           "clusters 2l and 2l + 1 at ±mean_norm·e_l, up to r = 2·dim, pair l of class l mod classes by default");
  s.real("mean_norm", 1.0, "‖μ_c‖").above(0);
  s.real("sigma", 0.1, "noise standard deviation per coordinate").min(0);
  s.boolean("balanced", false, "exactly equal class counts (in random order) instead of i.i.d. labels");
  s.choice("preset", "none", {"none", "xor4"},
           "xor4 (Shi 2024 B.5.3, Assumption B.36): clusters ±μ_1 of class 1 (+1) and ±μ_3 of class 0 (−1), "
           "‖μ_j‖ = √dim, ⟨μ_1, μ_3⟩ = 0, p_j = 1/4, σ_j = sigma (B.36 asks sigma >= 1); needs classes = 2");
  s.integer("clusters", Automatic{"one per class, the plain mixture"}, "r: the number of Gaussian clusters (chapter 3)").min(1);
  s.integers("cluster_labels", {},
             "the class of each of the r clusters, in [0, classes); empty = cluster j has class j mod classes")
      .min(0);
  s.reals("weights", {}, "p_j: the probability of each of the r clusters (normalised to sum 1); empty = equal").min(0);
  s.reals("sigmas", {}, "σ_j: each cluster's noise standard deviation per coordinate (r entries); empty = sigma")
      .min(0);
  return s;
}

GaussianMixtureDistribution::GaussianMixtureDistribution(const Params& params, Context& context)
    : classes_(static_cast<int>(params.integer("classes"))),
      dim_(params.integer("dim")),
      sigma_(params.real("sigma")),
      balanced_(params.boolean("balanced")) {
  general_ = params.str("preset") != "none" || params.str("means") == "antipodal" || params.integer_or_auto("clusters") ||
             !params.integers("cluster_labels").empty() || !params.reals("weights").empty() ||
             !params.reals("sigmas").empty();
  if (params.str("preset") == "xor4") {
    build_xor4(params, context);
    return;
  }
  if (general_) {
    build_clusters(params, context);
    return;
  }
  // The plain k-class mixture, drawn exactly as before the chapter-3 keys existed.
  means_ = Mat::Zero(classes_, dim_);
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
  for (int c = 0; c < classes_; ++c) cluster_class_.push_back(c);
  weights_.assign(static_cast<std::size_t>(classes_), 1.0 / classes_);
  sigmas_.assign(static_cast<std::size_t>(classes_), sigma_);
}

void GaussianMixtureDistribution::build_xor4(const Params& params, Context& context) {
  if (classes_ != 2) {
    throw Error("preset = \"xor4\" is binary (y_(1) = y_(2) = +1, y_(3) = y_(4) = −1): set classes = 2, got classes = " +
                std::to_string(classes_));
  }
  const auto fixed = [](const std::string& key, const std::string& what) {
    throw Error("preset = \"xor4\" fixes " + key + " (Assumption B.36: " + what + "); remove " + key +
                " or set preset = \"none\"");
  };
  if (params.integer_or_auto("clusters").value_or(4) != 4) fixed("clusters", "r = 4");
  if (!params.integers("cluster_labels").empty()) fixed("cluster_labels", "y_(1) = y_(2) = +1, y_(3) = y_(4) = −1");
  if (!params.reals("weights").empty()) fixed("weights", "p_j = 1/4");
  if (!params.reals("sigmas").empty()) fixed("sigmas", "every Σ_j = σ_B I; set sigma");
  if (params.real("mean_norm") != 1.0) fixed("mean_norm", "‖μ_j‖ = √dim");
  if (params.str("means") == "antipodal") fixed("means = \"antipodal\"", "±μ_1, ±μ_3 from basis vectors (orthogonal) or random");
  if (dim_ < 2) throw Error("preset = \"xor4\" needs dim >= 2 (two orthogonal means μ_1, μ_3), got dim = " + std::to_string(dim_));
  // The orthonormal pair (a, b): basis vectors, or Gram–Schmidt of two Gaussian vectors in double.
  Eigen::RowVectorXd a = Eigen::RowVectorXd::Zero(dim_), b = Eigen::RowVectorXd::Zero(dim_);
  if (params.str("means") == "orthogonal") {
    a(0) = 1;
    b(1) = 1;
  } else {
    Mat g(2, dim_);
    context.rng.fill_normal(g);
    a = g.row(0).cast<double>().normalized();
    b = g.row(1).cast<double>();
    b -= b.dot(a) * a;
    b.normalize();
  }
  const double scale = std::sqrt(static_cast<double>(dim_));
  means_.resize(4, dim_);
  means_.row(0) = (scale * a).cast<Scalar>();
  means_.row(1) = (-scale * a).cast<Scalar>();
  means_.row(2) = (scale * b).cast<Scalar>();
  means_.row(3) = (-scale * b).cast<Scalar>();
  cluster_class_ = {1, 1, 0, 0};
  weights_.assign(4, 0.25);
  sigmas_.assign(4, sigma_);
}

void GaussianMixtureDistribution::build_clusters(const Params& params, Context& context) {
  const auto requested = params.integer_or_auto("clusters");
  const bool antipodal = params.str("means") == "antipodal";
  const Index r = requested ? *requested : (antipodal ? 2 * classes_ : classes_);
  const auto count = static_cast<std::size_t>(r);
  const std::string clusters = "r = " + std::to_string(r) + " clusters" +
      (requested ? "" : antipodal ? " (clusters = \"auto\": one pair per class)" : " (clusters = \"auto\": one per class)");
  const auto& labels = params.integers("cluster_labels");
  if (labels.empty()) {
    if (antipodal && r < 2 * classes_) {
      throw Error("means = \"antipodal\" gives pair l (clusters 2l, 2l + 1) class l mod classes, so " + clusters +
                  " leave a class without a cluster; use clusters >= 2·classes = " + std::to_string(2 * classes_) +
                  ", or give cluster_labels");
    }
    // Antipodal pairs share a class (so E[yx] = 0 over each pair, as in xor4); otherwise cluster j is class j mod k.
    for (Index j = 0; j < r; ++j) cluster_class_.push_back(static_cast<std::int32_t>((antipodal ? j / 2 : j) % classes_));
  } else {
    if (labels.size() != count) {
      throw Error("cluster_labels has " + std::to_string(labels.size()) + " entries for " + clusters +
                  "; give one class per cluster, or leave it empty");
    }
    std::vector<bool> used(static_cast<std::size_t>(classes_), false);
    for (auto c : labels) {
      if (c >= classes_) {
        throw Error("cluster_labels holds class " + std::to_string(c) + ", outside [0, classes = " +
                    std::to_string(classes_) + "); raise classes or fix the label");
      }
      cluster_class_.push_back(static_cast<std::int32_t>(c));
      used[static_cast<std::size_t>(c)] = true;
    }
    for (int c = 0; c < classes_; ++c) {
      if (!used[static_cast<std::size_t>(c)]) {
        throw Error("cluster_labels gives class " + std::to_string(c) + " no cluster; every one of the " +
                    std::to_string(classes_) + " classes needs one (or lower classes)");
      }
    }
  }
  weights_ = params.reals("weights");
  if (weights_.empty()) weights_.assign(count, 1.0 / static_cast<double>(r));
  if (weights_.size() != count) {
    throw Error("weights has " + std::to_string(weights_.size()) + " entries for " + clusters +
                "; give one p_j per cluster, or leave it empty");
  }
  const double total = std::accumulate(weights_.begin(), weights_.end(), 0.0);
  if (!(total > 0)) throw Error("weights sum to 0; give each cluster a probability p_j >= 0, some > 0");
  for (double& w : weights_) w /= total;
  sigmas_ = params.reals("sigmas");
  if (sigmas_.empty()) sigmas_.assign(count, sigma_);
  if (sigmas_.size() != count) {
    throw Error("sigmas has " + std::to_string(sigmas_.size()) + " entries for " + clusters +
                "; give one σ_j per cluster, or leave it empty to use sigma");
  }
  means_ = Mat::Zero(r, dim_);
  const double norm = params.real("mean_norm");
  if (params.str("means") == "orthogonal") {
    if (dim_ < r) {
      throw Error("means = \"orthogonal\" needs dim >= the number of clusters (" + clusters + "), got dim = " +
                  std::to_string(dim_) + "; raise dim or use means = \"random\"");
    }
    for (Index j = 0; j < r; ++j) means_(j, j) = static_cast<Scalar>(norm);
  } else if (antipodal) {
    // Assumption 3.15 allows r <= 2d well-separated clusters, ⟨D_i, D_j⟩ <= θ or −1: the pairs ±e_l reach r = 2d.
    if (2 * dim_ < r) {
      throw Error("means = \"antipodal\" places clusters 2l, 2l + 1 at ±mean_norm·e_l, so it needs 2·dim >= the number "
                  "of clusters (" + clusters + "), got dim = " + std::to_string(dim_) + "; raise dim or lower clusters");
    }
    for (Index j = 0; j < r; ++j) means_(j, j / 2) = static_cast<Scalar>(j % 2 == 0 ? norm : -norm);
  } else {
    context.rng.fill_normal(means_);
    for (Index j = 0; j < r; ++j) means_.row(j) *= static_cast<Scalar>(norm) / means_.row(j).norm();
  }
}

double GaussianMixtureDistribution::dimension(const Params& params) {
  return double(params.integer("dim"));
}

DataSpec GaussianMixtureDistribution::spec() const {
  DataSpec s;
  s.dim = dim_;
  s.classes = classes_;
  if (general_) s.meta = {"cluster"};
  return s;
}

FeatureSet GaussianMixtureDistribution::features() const {
  const Index r = means_.rows();
  Mat directions = means_;
  Mat classes(1, r);
  for (Index j = 0; j < r; ++j) {
    const Scalar norm = means_.row(j).norm();
    if (norm > 0) directions.row(j) /= norm;
    classes(0, j) = static_cast<Scalar>(cluster_class_[static_cast<std::size_t>(j)]);
  }
  FeatureSet f{{"means", means_}, {"centres", means_}, {"directions", directions}, {"cluster_classes", classes}};
  if (classes_ == 2) f["cluster_labels"] = (classes.array() * 2 - 1).matrix();  // class 1 = +1, class 0 = −1
  return f;
}

void GaussianMixtureDistribution::sample(Index n, Split, Rng& rng, Dataset& out) {
  if (general_) {
    sample_clusters(n, rng, out);
    return;
  }
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

void GaussianMixtureDistribution::sample_clusters(Index n, Rng& rng, Dataset& out) const {
  out.resize(n, dim_);
  out.classes = classes_;
  VecD& cluster = out.meta["cluster"];
  cluster.resize(n);
  const std::size_t r = weights_.size();
  if (balanced_) {
    // Exact counts: ⌊n p_j⌋, the remainder to the largest fractional parts (ties: the lower j).
    std::vector<Index> counts(r);
    std::vector<std::size_t> by_fraction(r);
    Index given = 0;
    for (std::size_t j = 0; j < r; ++j) {
      counts[j] = static_cast<Index>(std::floor(weights_[j] * static_cast<double>(n)));
      given += counts[j];
      by_fraction[j] = j;
    }
    const auto fraction = [&](std::size_t j) { return weights_[j] * static_cast<double>(n) - static_cast<double>(counts[j]); };
    std::stable_sort(by_fraction.begin(), by_fraction.end(), [&](std::size_t p, std::size_t q) { return fraction(p) > fraction(q); });
    for (std::size_t t = 0; given < n; ++t, ++given) ++counts[by_fraction[t % r]];
    const std::vector<Index> order = rng.permutation(n);
    std::size_t at = 0;
    for (std::size_t j = 0; j < r; ++j) {
      for (Index c = 0; c < counts[j]; ++c) cluster(order[at++]) = static_cast<double>(j);
    }
  } else {
    std::vector<double> cumulative(r);
    std::partial_sum(weights_.begin(), weights_.end(), cumulative.begin());
    for (Index i = 0; i < n; ++i) {
      const auto j = std::upper_bound(cumulative.begin(), cumulative.end(), rng.uniform()) - cumulative.begin();
      cluster(i) = static_cast<double>(std::min<std::ptrdiff_t>(j, static_cast<std::ptrdiff_t>(r) - 1));
    }
  }
  // x = μ_j + σ_j ξ with ξ ~ N(0, I): the noise for the whole split, scaled row by row.
  rng.fill_normal(out.X);
  Vec scale(n);
  for (Index i = 0; i < n; ++i) {
    const auto j = static_cast<std::size_t>(cluster(i));
    out.y(i) = cluster_class_[j];
    scale(i) = static_cast<Scalar>(sigmas_[j]);
  }
  out.X.array().colwise() *= scale.array();
  for (Index i = 0; i < n; ++i) out.X.row(i) += means_.row(static_cast<Index>(cluster(i)));
}

}  // namespace featurelab::std_pack
