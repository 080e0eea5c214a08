// Distribution `xor-clusters`: the XOR clusters of Frei, Chatterji & Bartlett (2022) §2.1.
#pragma once

#include <featurelab/distribution.hpp>

#include <string>

namespace featurelab::std_pack {

class XorClustersDistribution : public Distribution {
 public:
  static constexpr Doc kDoc =
      "XOR mixture of Frei, Chatterji & Bartlett (2022) §2.1: clusters ±μ1 (label +1) and ±μ2 (label −1), "
      "μ1 = e1, μ2 = e2, noise of covariance σ²I, optional label flips; metadata cluster, y_clean, is_noisy.";
  static Schema schema();
  static double dimension(const Params& params);  // D, for the memory estimate at validation
  XorClustersDistribution(const Params& params, Context& context);
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
