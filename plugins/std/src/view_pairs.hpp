// Augments that turn a batch into contrastive view pairs (Wen & Li Def. 2.3, Remark 2.4). The first
// `positives` = K rows of the input are the positives x_p, the remaining N rows stay raw negatives (the paper
// never augments negatives). The output has 2K + N rows in the layout every contrastive loss reads:
//     rows [0, K)       anchors    x⁺
//     rows [K, 2K)      positives  x⁺⁺ (row K + k is the positive view of anchor k)
//     rows [2K, 2K+N)   negatives  x_n, copied unchanged
// and column 0 of T holds each row's role (0 anchor, 1 positive, 2 negative), so the loss checks the layout
// instead of trusting a second copy of K.
//   random-mask     D = diag(Bernoulli(q)) drawn fresh per positive; mode complementary (the paper):
//                   x⁺ = D x / q, x⁺⁺ = (I − D) x / (1 − q) — every coordinate in exactly one view, so
//                   E[x⁺⁺ x⁺ᵀ] = Σ_x − diag(Σ_x) and the isotropic dense noise is decoupled between the views;
//                   mode independent: x⁺ = D₁x/q, x⁺⁺ = D₂x/q — E[x⁺⁺ x⁺ᵀ] = Σ_x, the same second moments as no
//                   augmentation (the ablation that shows why the masks must be complementary).
//   identity-views  x⁺ = x⁺⁺ = x (no augmentation).
#pragma once

#include <featurelab/augment.hpp>

namespace contrastive_decoupling {

// Roles written in column 0 of T.
inline constexpr featurelab::Scalar kAnchor = 0, kPositive = 1, kNegative = 2;

class ViewPairs : public featurelab::Augment {
 public:
  static featurelab::Schema schema();
  ViewPairs(const featurelab::Params& params, featurelab::Context& context, const std::string& name);
  void apply(const featurelab::Batch& in, featurelab::Dataset& out, featurelab::Rng& rng) override;

 protected:
  // Writes the two views of the K positives X (K×D) into anchors and positives (each K×D).
  virtual void views(featurelab::ConstMatRef X, featurelab::MatRef anchors, featurelab::MatRef positives,
                     featurelab::Rng& rng) = 0;

 private:
  featurelab::Index positives_;
  std::string name_;
};

class RandomMask : public ViewPairs {
 public:
  static constexpr featurelab::Doc kDoc =
      "Coordinate masks (Wen & Li Def. 2.3): x⁺ = Dx/q, x⁺⁺ = (I−D)x/(1−q) with D ~ Bernoulli(q) per positive "
      "(complementary; independent masks as the ablation); the first `positives` rows become view pairs, the rest "
      "stay raw negatives.";
  static featurelab::Schema schema();
  RandomMask(const featurelab::Params& params, featurelab::Context& context);

 protected:
  void views(featurelab::ConstMatRef X, featurelab::MatRef anchors, featurelab::MatRef positives,
             featurelab::Rng& rng) override;

 private:
  void draw_mask(featurelab::Rng& rng);  // mask_ (already sized) ~ Bernoulli(keep) entrywise
  double keep_;
  bool complementary_;
  featurelab::Mat mask_;
};

class IdentityViews : public ViewPairs {
 public:
  static constexpr featurelab::Doc kDoc =
      "No augmentation: x⁺ = x⁺⁺ = x for the first `positives` rows, the rest stay raw negatives (the contrastive "
      "layout of random-mask).";
  IdentityViews(const featurelab::Params& params, featurelab::Context& context);

 protected:
  void views(featurelab::ConstMatRef X, featurelab::MatRef anchors, featurelab::MatRef positives,
             featurelab::Rng& rng) override;
};

}  // namespace contrastive_decoupling
