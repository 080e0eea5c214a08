// The sets at t = 0, their sizes, norms and activation edges; repeated at every later step.
#include "candidate_sets_probe.hpp"

#include <featurelab/row_norms.hpp>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <string>
#include <vector>

namespace featurelab::feature_amplification_pack {

namespace {
const char* kSetNames[] = {"plus_mu1", "minus_mu1", "plus_mu2", "minus_mu2"};
}  // namespace

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
  const VecD corr_mu1 =
      (n.W * n.means.row(0).transpose()).cast<double>().array().abs() / row_norms(n.W).cwiseMax(1e-300).array();
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

}  // namespace featurelab::feature_amplification_pack
