// Distribution `fashion-mnist`: the real Fashion-MNIST images (Xiao et al. 2017) from Debian's
// dataset-fashion-mnist package (IDX files under /usr/share/datasets/fashion-mnist), read by our
// own loader (idx_file.hpp); pixels normalised as the code of Chidambaram et al. (2023) does:
// (x/255 − 0.5)/0.5.
#pragma once

#include <featurelab/distribution.hpp>

#include <filesystem>
#include <string>

namespace featurelab::std_pack {

// Reads one split (prefix "train" or "t10k") of the IDX files in dir into X (n×784: x/255, or (x/255 − 0.5)/0.5 with
// normalize) and the labels y. Throws featurelab::Error naming the file and the fix.
void read_fashion_mnist(const std::filesystem::path& dir, const std::string& prefix, bool normalize, Mat& X, IVec& y);

class FashionMnistDistribution : public Distribution {
 public:
  static constexpr Doc kDoc =
      "Fashion-MNIST (60000 train / 10000 test 28×28 images, 10 classes) from the Debian package "
      "dataset-fashion-mnist; shape 1×28×28; a split's samples are a random subset (train) or the first n (test); `classes = k` keeps the first k classes.";
  static Schema schema();
  static double dimension(const Params& params);  // D, for the memory estimate at validation
  FashionMnistDistribution(const Params& params, Context& context);
  DataSpec spec() const override;
  void sample(Index n, Split split, Rng& rng, Dataset& out) override;
  Index available(Split split) const override;

 private:
  Mat train_x_, test_x_;
  IVec train_y_, test_y_;
  Index classes_ = 10;
};

}  // namespace featurelab::std_pack
