// Distribution `gaussian-mixture`: Gaussian classes, or clusters with a class each (Shi 2024 §3.4.1).
#pragma once

#include <featurelab/distribution.hpp>

#include <cstdint>
#include <vector>

namespace featurelab::std_pack {

class GaussianMixtureDistribution : public Distribution {
 public:
  static constexpr Doc kDoc =
      "k Gaussian classes x = μ_y + σξ with orthogonal (scaled basis vectors) or random means of a chosen "
      "norm; or r clusters N(μ_j, σ_j² I) with weights p_j and a class per cluster (Shi 2024 §3.4.1, B.5.2), "
      "preset xor4 (B.5.3), antipodal pairs ±e_l up to r = 2d; exposes \"means\" (= \"centres\"), \"directions\", \"cluster_labels\".";
  static Schema schema();
  static double dimension(const Params& params);  // D, for the memory estimate at validation
  GaussianMixtureDistribution(const Params& params, Context& context);
  DataSpec spec() const override;
  void sample(Index n, Split split, Rng& rng, Dataset& out) override;
  FeatureSet features() const override;

 private:
  void build_xor4(const Params& params, Context& context);
  void build_clusters(const Params& params, Context& context);
  void sample_clusters(Index n, Rng& rng, Dataset& out) const;

  int classes_;
  Index dim_;
  double sigma_;
  bool balanced_;
  Mat means_;  // r×D cluster centres; k×D class means in the plain mixture (r = k)
  bool general_ = false;                 // any chapter-3 key set: clusters, weights, sigmas, labels or a preset
  std::vector<std::int32_t> cluster_class_;  // class of cluster j
  std::vector<double> weights_;          // p_j, summing to 1
  std::vector<double> sigmas_;           // σ_j, per-coordinate std
};

}  // namespace featurelab::std_pack
