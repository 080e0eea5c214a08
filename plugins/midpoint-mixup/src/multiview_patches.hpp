// Distribution `multiview-patches`: the multi-view patch data of Chidambaram et al. Def. 4.1.
#pragma once

#include <featurelab/distribution.hpp>

namespace featurelab::midpoint_mixup_pack {

// Def. 4.1 with Assumption 4.3's hyperparameters as parameters: P patches of dimension d; C_P
// signal pairs carrying β v_{y,1} and (δ2 − β) v_{y,2}, β ~ U[δ1, δ2 − δ1]; the other patches
// are feature noise Σ_{j≤Q} Σ_ℓ γ_{j,ℓ} v_{s_j,ℓ}, γ ~ U[δ3, δ4], s_j distinct classes ≠ y.
class MultiviewPatches : public featurelab::Distribution {
 public:
  static constexpr featurelab::Doc kDoc =
      "Multi-view patch data (Def. 4.1, Assumption 4.3): P patches of dimension d, C_P signal pairs "
      "(β v_{y,1}, (δ2−β) v_{y,2}), feature-noise patches mixing Q other classes' features with coefficients "
      "in [δ3, δ4]; shape P×d (or the signal patches and one noise patch counted P − 2C_P times, with "
      "collapse_noise); features views/view1/view2; metadata beta.";
  static featurelab::Schema schema();
  static double dimension(const featurelab::Params& params);  // D, for the memory estimate at validation
  MultiviewPatches(const featurelab::Params& params, featurelab::Context& context);
  featurelab::DataSpec spec() const override;
  void sample(featurelab::Index n, featurelab::Split split, featurelab::Rng& rng, featurelab::Dataset& out) override;
  featurelab::FeatureSet features() const override;

 private:
  int classes_;
  featurelab::Index patches_, dim_, pairs_;
  double delta1_, delta2_, delta3_, delta4_;
  int noise_classes_;
  bool same_noise_;
  bool random_positions_;
  bool collapse_noise_;   // the P − 2C_P equal noise patches stored once, counted P − 2C_P times
  bool one_view_tests_;   // test points carry one feature in every signal patch (the authors' code)
  featurelab::Index stored_patches() const { return collapse_noise_ && patches_ > 2 * pairs_ ? 2 * pairs_ + 1 : patches_; }
  featurelab::DataShape shape() const;
  featurelab::Mat views_;
};

}  // namespace featurelab::midpoint_mixup_pack
