// The std distributions: Gaussian mixtures and the XOR clusters of Frei, Chatterji & Bartlett.
#pragma once

#include <featurelab/distribution.hpp>

namespace featurelab::std_pack {

class GaussianMixture : public Distribution {
 public:
  static constexpr const char* kDoc =
      "k Gaussian classes x = μ_y + σξ with orthogonal (scaled basis vectors) or random means of a chosen "
      "norm; exposes the means as feature \"means\".";
  static Schema schema();
  GaussianMixture(const Params& params, Context& context);
  DataSpec spec() const override;
  void sample(Index n, Split split, Rng& rng, Dataset& out) override;
  FeatureSet features() const override { return {{"means", means_}}; }

 private:
  int classes_;
  Index dim_;
  double sigma_;
  bool balanced_;
  Mat means_;  // k×D
};

class XorClusters : public Distribution {
 public:
  static constexpr const char* kDoc =
      "XOR mixture of Frei, Chatterji & Bartlett (2022) §2.1: clusters ±μ1 (label +1) and ±μ2 (label −1), "
      "μ1 = e1, μ2 = e2, noise of covariance σ²I, optional label flips; metadata cluster, y_clean, is_noisy.";
  static Schema schema();
  XorClusters(const Params& params, Context& context);
  DataSpec spec() const override;
  void sample(Index n, Split split, Rng& rng, Dataset& out) override;
  FeatureSet features() const override;

 private:
  Index dim_;
  double sigma_;
  std::string noise_;
  double label_noise_;
  std::string noise_mode_;
  bool noisy_test_;
};

}  // namespace featurelab::std_pack
