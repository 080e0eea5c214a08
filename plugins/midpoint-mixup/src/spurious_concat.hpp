// Transform `spurious-concat` (Chidambaram et al. §5, Fig. 1, and the authors' code): classes are
// paired by a random perfect matching; every training image gets one fixed image of its partner
// class concatenated along the channels, the two scaled γ and 1 − γ with γ ~ U[0, 1]; test images
// get zeros in the extra channels. The label is unchanged. γ is drawn once per image here
// (gamma = "once"), or at every access as the authors' loader does (gamma = "per-access": the
// concatenation stays unscaled and augment spurious-gamma scales each batch).
#pragma once

#include <featurelab/transform.hpp>

namespace featurelab::midpoint_mixup_pack {

class SpuriousConcat : public featurelab::Transform {
 public:
  static constexpr featurelab::Doc kDoc =
      "Concatenate to each training image a fixed image of a randomly paired other class along the channels, "
      "scaled γ and 1−γ (γ ~ U[0,1]); test images get zero channels (§5). Metadata: gamma, partner_class.";
  static featurelab::Schema schema();
  SpuriousConcat(const featurelab::Params& params, featurelab::Context& context);
  featurelab::DataSpec output_spec(const featurelab::DataSpec& in) const override;
  void apply(featurelab::Dataset& train, featurelab::Dataset& test, featurelab::Rng& rng) override;

 private:
  double gamma_low_, gamma_high_;
  bool per_access_;
};

}  // namespace featurelab::midpoint_mixup_pack
