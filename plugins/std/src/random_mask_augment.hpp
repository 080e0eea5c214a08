// Augment `random-mask` (Wen & Li 2021 Def. 2.3): view pairs (view_pairs.hpp) by coordinate masks.
#pragma once

#include "view_pairs.hpp"

namespace featurelab::std_pack {

class RandomMaskAugment : public ViewPairs {
 public:
  static constexpr Doc kDoc =
      "Coordinate masks (Wen & Li Def. 2.3): x⁺ = Dx/q, x⁺⁺ = (I−D)x/(1−q) with D ~ Bernoulli(q) per positive "
      "(complementary; independent masks as the ablation); the first `positives` rows become view pairs, the rest "
      "stay raw negatives.";
  static Schema schema();
  RandomMaskAugment(const Params& params, Context& context);

 protected:
  void views(ConstMatRef X, MatRef anchors, MatRef positives, Rng& rng) override;

 private:
  void draw_mask(Rng& rng);  // mask_ (already sized) ~ Bernoulli(keep) entrywise
  double keep_;
  bool complementary_;
  Mat mask_;
};

}  // namespace featurelab::std_pack
