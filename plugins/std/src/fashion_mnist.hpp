// Distribution `fashion-mnist`: the real Fashion-MNIST images (Xiao et al. 2017) from Debian's
// dataset-fashion-mnist package (IDX files under /usr/share/datasets/fashion-mnist), read by our
// own loader; pixels normalised as the authors' code does: (x/255 − 0.5)/0.5.
#pragma once

#include <featurelab/distribution.hpp>

namespace midpoint_mixup {

class FashionMnist : public featurelab::Distribution {
 public:
  static constexpr featurelab::Doc kDoc =
      "Fashion-MNIST (60000 train / 10000 test 28×28 images, 10 classes) from the Debian package "
      "dataset-fashion-mnist; shape 1×28×28; a split's samples are a random subset (train) or the first n (test).";
  static featurelab::Schema schema();
  static double dimension(const featurelab::Params& params);  // D, for the memory estimate at validation
  FashionMnist(const featurelab::Params& params, featurelab::Context& context);
  featurelab::DataSpec spec() const override;
  void sample(featurelab::Index n, featurelab::Split split, featurelab::Rng& rng, featurelab::Dataset& out) override;
  featurelab::Index available(featurelab::Split split) const override;

 private:
  featurelab::Mat train_x_, test_x_;
  featurelab::IVec train_y_, test_y_;
};

}  // namespace midpoint_mixup
