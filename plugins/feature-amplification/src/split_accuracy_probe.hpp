// Probe `split-accuracy` (Frei, Chatterji, Bartlett 2022, Thm. 3.1, Lemma 4.3): train clean accuracy, train noisy
// misclassification, test error against noisy and clean labels, realised noise rates, per-cluster clean error.
// A binary model with one output predicts class 1 (y = +1) iff f > 0.
#pragma once

#include "xor_geometry.hpp"

#include <featurelab/probe.hpp>

#include <string>
#include <vector>

namespace featurelab::feature_amplification_pack {

class SplitAccuracyProbe : public featurelab::Probe {
 public:
  static constexpr featurelab::Doc kDoc =
      "train_clean_acc, train_noisy_misclf, test_err_noisy, test_err_clean, realised noise rates and their gap to "
      "the test error, per-cluster clean test error (Frei et al. Thm 3.1).";
  static featurelab::Schema schema() { return featurelab::Schema{}; }
  static featurelab::ContractData contract_data() { return xor_contract(); }
  static std::vector<std::string> metrics() {
    return {"train_clean_acc", "train_noisy_misclf", "train_noise_rate", "test_err_noisy", "test_err_clean",
            "test_noise_rate", "test_err_minus_noise", "test_err_clean_cluster0", "test_err_clean_cluster1",
            "test_err_clean_cluster2", "test_err_clean_cluster3"};
  }
  SplitAccuracyProbe(const featurelab::Params&, featurelab::Context&) {}
  void measure(const featurelab::ProbeInput& in, featurelab::Measurements& out) override;
};

}  // namespace featurelab::feature_amplification_pack
