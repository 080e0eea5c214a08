// Correlations as one product W·[μ1 μ2]ᵀ; activation patterns as one product X·Wᵀ.
#include "neuron_probes.hpp"

#include "xor_geometry.hpp"

#include <featurelab/error.hpp>

#include <cmath>

namespace feature_amplification {

using namespace featurelab;

namespace {
const char* kSetNames[] = {"plus_mu1", "minus_mu1", "plus_mu2", "minus_mu2"};

// Clusters 0: +μ1, 1: −μ1, 2: +μ2, 3: −μ2; the opposite of c is its mirror image.
int opposite(int c) { return c ^ 1; }
}  // namespace

CandidateSets candidate_sets(const Mat& W, const Vec& a, const Mat& means, double threshold) {
  CandidateSets sets;
  const Vec norms = W.rowwise().norm().cwiseMax(Scalar(1e-30));
  const Mat corr = (W * means.transpose()).array().colwise() / norms.array();  // m×2
  for (Index j = 0; j < W.rows(); ++j) {
    if (a(j) == 0) continue;
    const int feature = a(j) > 0 ? 0 : 1;
    const double c = corr(j, feature);
    if (c > threshold) sets[static_cast<std::size_t>(2 * feature)].push_back(j);
    if (-c > threshold) sets[static_cast<std::size_t>(2 * feature + 1)].push_back(j);
  }
  return sets;
}

void NeuronFeatureCorrelation::measure(const ProbeInput& in, Measurements& out) {
  const XorNeurons n = xor_neurons(in.model, in.features, name());
  const Vec norms = n.W.rowwise().norm().cwiseMax(Scalar(1e-30));
  const VecD own = ((n.W.array() * n.own.array()).rowwise().sum().abs() / norms.array()).cast<double>();
  const VecD cross = ((n.W.array() * n.other.array()).rowwise().sum().abs() / norms.array()).cast<double>();
  out.scalar("own_min", own.minCoeff());
  out.scalar("own_p10", quantile(own, 0.1));
  out.scalar("own_median", quantile(own, 0.5));
  out.scalar("own_max", own.maxCoeff());
  out.scalar("cross_median", quantile(cross, 0.5));
  out.scalar("cross_max", cross.maxCoeff());
}

Schema CandidateSetsProbe::schema() {
  Schema s;
  s.real("C0", 2.0, "C0 of Lemma 4.2 (the paper's 4⁵·1024²·e⁴ makes the threshold ≈ 0)").above(1);
  s.choice("mode", "threshold", {"threshold", "sign"}, "J_μ by ⟨ŵ, μ⟩ ≥ 1/(3 C0 √d), or by its sign");
  s.real("init_scale", Automatic{"‖W0‖_F/√(md)"}, "ω, the std of the initial weights").above(0);
  return s;
}

CandidateSetsProbe::CandidateSetsProbe(const Params& params, Context&)
    : c0_(params.real("C0")), by_sign_(params.str("mode") == "sign"), omega_(params.real_or_auto("init_scale")) {}

void CandidateSetsProbe::measure(const ProbeInput& in, Measurements& out) {
  if (measured_) {
    for (const auto& [name, value] : first_.scalars()) out.scalar(name, value);
    return;
  }
  const std::string& who = name();
  const XorNeurons n = xor_neurons(in.model, in.features, who);
  const Index m = n.W.rows(), d = n.W.cols();
  const double threshold = by_sign_ ? 0.0 : 1.0 / (3 * c0_ * std::sqrt(static_cast<double>(d)));
  const CandidateSets sets = candidate_sets(n.W, n.a, n.means, threshold);
  const double omega = omega_ ? *omega_ : n.W.norm() / std::sqrt(static_cast<double>(m * d));
  double min_size = 1e300;
  for (std::size_t s = 0; s < 4; ++s) {
    first_.scalar(std::string("size_") + kSetNames[s], static_cast<double>(sets[s].size()));
    min_size = std::min(min_size, static_cast<double>(sets[s].size()));
  }
  first_.scalar("min_size", min_size);
  first_.scalar("size_bound", static_cast<double>(m) * (1 - 1 / c0_) * (1 - 1 / c0_) / 4);
  const VecD scaled = (n.W.rowwise().norm() / static_cast<Scalar>(omega * std::sqrt(static_cast<double>(d)))).cast<double>();
  first_.scalar("init_norm_min", scaled.minCoeff());
  first_.scalar("init_norm_max", scaled.maxCoeff());
  const VecD corr_mu1 = ((n.W * n.means.row(0).transpose()).array() / n.W.rowwise().norm().array().cwiseMax(Scalar(1e-30)))
                            .abs()
                            .cast<double>();
  first_.scalar("init_corr_median_sqrt_d", quantile(corr_mu1, 0.5) * std::sqrt(static_cast<double>(d)));
  // Lemma 4.4: Edge_μ(j) = #clean points of cluster μ activating j − #clean points of −μ activating j.
  const VecD& cluster = column(in.train, "cluster", who);
  const VecD& noisy = column(in.train, "is_noisy", who);
  const Mat Z = in.train.X * n.W.transpose();
  std::vector<double> edges;
  for (int c = 0; c < 4; ++c) {
    for (Index j : sets[static_cast<std::size_t>(c)]) {
      double edge = 0;
      for (Index i = 0; i < Z.rows(); ++i) {
        if (noisy(i) > 0.5 || Z(i, j) <= 0) continue;
        if (static_cast<int>(cluster(i)) == c) edge += 1;
        if (static_cast<int>(cluster(i)) == opposite(c)) edge -= 1;
      }
      edges.push_back(edge / static_cast<double>(Z.rows()));
    }
  }
  if (!edges.empty()) {
    const VecD e = Eigen::Map<const VecD>(edges.data(), static_cast<Index>(edges.size()));
    first_.scalar("edge_min", e.minCoeff());
    first_.scalar("edge_median", quantile(e, 0.5));
  }
  measured_ = true;
  for (const auto& [name, value] : first_.scalars()) out.scalar(name, value);
}

void NeuronAlignment::measure(const ProbeInput& in, Measurements& out) {
  const std::string& who = name();
  const XorNeurons n = xor_neurons(in.model, in.features, who);
  if (!fixed_) {
    sets_ = candidate_sets(n.W, n.a, n.means, 0.0);
    fixed_ = true;
  }
  const VecD& cluster = column(in.train, "cluster", who);
  const Mat Z = in.train.X * n.W.transpose();
  double holds = 0, total = 0;
  for (int c = 0; c < 4; ++c) {
    for (Index j : sets_[static_cast<std::size_t>(c)]) {
      bool ok = true;
      for (Index i = 0; i < Z.rows() && ok; ++i) {
        const int k = static_cast<int>(cluster(i));
        if (k == c && Z(i, j) <= 0) ok = false;            // φ′ = 1 on its own cluster, noisy points included
        if (k == opposite(c) && Z(i, j) > 0) ok = false;   // φ′ = 0 on the opposite one
      }
      holds += ok ? 1 : 0;
      total += 1;
    }
  }
  out.scalar("fraction", total > 0 ? holds / total : 0.0);
}

Schema AlmostOrthogonality::schema() {
  Schema s;
  s.real("lr", 0.05, "α, the step size of the run (the bound is factor·α|a_j|)").above(0);
  s.real("factor", 3.0, "the constant of Condition 4.8").above(0);
  return s;
}

AlmostOrthogonality::AlmostOrthogonality(const Params& params, Context&)
    : lr_(params.real("lr")), factor_(params.real("factor")) {}

void AlmostOrthogonality::measure(const ProbeInput& in, Measurements& out) {
  const XorNeurons n = xor_neurons(in.model, in.features, name());
  if (!fixed_) {
    sets_ = candidate_sets(n.W, n.a, n.means, 0.0);
    fixed_ = true;
  }
  const Vec other = (n.W.array() * n.other.array()).rowwise().sum().abs();
  double holds = 0, total = 0, worst = 0;
  for (const auto& set : sets_) {
    for (Index j : set) {
      const double ratio = other(j) / (lr_ * std::abs(static_cast<double>(n.a(j))));
      worst = std::max(worst, ratio);
      holds += ratio <= factor_ ? 1 : 0;
      total += 1;
    }
  }
  out.scalar("fraction", total > 0 ? holds / total : 0.0);
  out.scalar("max_ratio", worst);
}

void FeatureMapChange::measure(const ProbeInput& in, Measurements& out) {
  const XorNeurons n = xor_neurons(in.model, in.features, name());
  if (W0_.size() == 0) W0_ = n.W;
  const Mat H0 = (in.train.X * W0_.transpose()).cwiseMax(Scalar(0));
  const Mat H = (in.train.X * n.W.transpose()).cwiseMax(Scalar(0));
  const Vec denom = H0.rowwise().norm();
  const Vec change = (H - H0).rowwise().norm();
  double smallest = std::numeric_limits<double>::infinity();
  for (Index i = 0; i < denom.size(); ++i) {
    if (denom(i) > 0) smallest = std::min(smallest, static_cast<double>(change(i) / denom(i)));  // φ(W0x) = 0: skipped
  }
  if (!std::isfinite(smallest)) return;
  out.scalar("min_ratio", smallest);
  out.scalar("min_ratio_times_init", smallest * static_cast<double>(W0_.norm()));
}

}  // namespace feature_amplification
