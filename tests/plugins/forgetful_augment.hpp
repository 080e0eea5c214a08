// Fixture augment `forgetful-augment`: copies the batch's samples but forgets its labels (no
// out.resize(), out.y left empty), the mistake augment.hpp warns about. The host must fail the job
// naming the augment and the shapes, instead of the loss reading labels that do not exist.
#pragma once

#include <featurelab/augment.hpp>

namespace fixture {

class ForgetfulAugment : public featurelab::Augment {
 public:
  static constexpr featurelab::Doc kDoc = "An augment that forgets to size its output's labels.";
  static featurelab::Schema schema() { return {}; }
  ForgetfulAugment(const featurelab::Params&, featurelab::Context&) {}
  void apply(const featurelab::Batch& in, featurelab::Dataset& out, featurelab::Rng&) override {
    out.X = in.X();
    out.classes = in.classes;
  }
};

}  // namespace fixture
