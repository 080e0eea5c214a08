// Transform `label-noise` (Frei, Chatterji, Bartlett 2022 §2.1: "flipping 15% of the training
// labels"; the theorem allows any η(x)). Binary labels flip to the other class:
//   bernoulli     each label flips with probability η
//   exact         exactly round(η n) labels, chosen at random
//   per-cluster   label i flips with probability η_c for its cluster c (metadata column "cluster"):
//                 a simple adversarial η(x)
// on the training split, the test split or both. The clean label is kept in the metadata column
// y_clean (added if the distribution has none) and is_noisy = 1[y ≠ y_clean].
#pragma once

#include <featurelab/transform.hpp>

#include <string>
#include <vector>

namespace featurelab::std_pack {

class LabelNoiseTransform : public Transform {
 public:
  static constexpr Doc kDoc =
      "Flip binary labels: Bernoulli(η), an exact fraction, or per cluster (η_c by metadata column cluster), on train, "
      "test or both; metadata y_clean and is_noisy.";
  static Schema schema();
  LabelNoiseTransform(const Params& params, Context& context);
  DataSpec output_spec(const DataSpec& in) const override;
  void apply(Dataset& train, Dataset& test, Rng& rng) override;

 private:
  void flip(Dataset& data, Rng& rng, bool active) const;
  std::string mode_;
  double eta_;
  std::vector<double> per_cluster_;
  bool train_, test_;
};

}  // namespace featurelab::std_pack
