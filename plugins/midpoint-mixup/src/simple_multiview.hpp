// Distribution `simple-multiview`: the multi-view data of Chidambaram et al. Def. 3.1.
#pragma once

#include <featurelab/distribution.hpp>

namespace featurelab::midpoint_mixup_pack {

// Def. 3.1: x = β v_{y,1} + (1 − β) v_{y,2}, β ~ U[beta_low, beta_high], y uniform.
class SimpleMultiview : public featurelab::Distribution {
 public:
  static constexpr featurelab::Doc kDoc =
      "Simple multi-view data (Def. 3.1): x = β v_{y,1} + (1−β) v_{y,2} with β ~ U[0.1, 0.9]; features "
      "\"views\" (2k×d), \"view1\", \"view2\"; metadata beta.";
  static featurelab::Schema schema();
  static double dimension(const featurelab::Params& params);  // D, for the memory estimate at validation
  SimpleMultiview(const featurelab::Params& params, featurelab::Context& context);
  featurelab::DataSpec spec() const override;
  void sample(featurelab::Index n, featurelab::Split split, featurelab::Rng& rng, featurelab::Dataset& out) override;
  featurelab::FeatureSet features() const override;

 private:
  int classes_;
  double low_, high_;
  featurelab::Mat views_;  // 2k×d
};

}  // namespace featurelab::midpoint_mixup_pack
