// What the augments that turn a batch into contrastive view pairs (Wen & Li 2021 Def. 2.3, Remark 2.4), in the SDK's view
// layout (featurelab/views.hpp). The first `positives` = K rows of the input are the positives x_p, the remaining
// N rows stay raw negatives x_n (the paper never augments negatives): anchors x⁺ in rows [0, K), positives x⁺⁺
// in rows [K, 2K), the negatives copied unchanged in rows [2K, 2K + N), roles in column 0 of T.
//   random-mask     D = diag(Bernoulli(q)) drawn fresh per positive; mode complementary (the paper):
//                   x⁺ = D x / q, x⁺⁺ = (I − D) x / (1 − q) — every coordinate in exactly one view, so
//                   E[x⁺⁺ x⁺ᵀ] = Σ_x − diag(Σ_x) and the isotropic dense noise is decoupled between the views;
//                   mode independent: x⁺ = D₁x/q, x⁺⁺ = D₂x/q — E[x⁺⁺ x⁺ᵀ] = Σ_x, the same second moments as no
//                   augmentation (the ablation that shows why the masks must be complementary).  (random_mask_augment.hpp)
//   identity-views  x⁺ = x⁺⁺ = x (no augmentation).  (identity_views_augment.hpp)
#pragma once

#include <featurelab/augment.hpp>

namespace featurelab::std_pack {

class ViewPairs : public Augment {
 public:
  static Schema schema();
  // A batch of the contract test holds a few rows: four pairs, the rest negatives.
  static std::map<std::string, Value> test_params() { return {{"positives", std::int64_t(4)}}; }
  ViewPairs(const Params& params, Context& context);
  void apply(const Batch& in, Dataset& out, Rng& rng) override;

 protected:
  // Writes the two views of the K positives X (K×D) into anchors and positives (each K×D).
  virtual void views(ConstMatRef X, MatRef anchors, MatRef positives, Rng& rng) = 0;

 private:
  Index positives_;
};

}  // namespace featurelab::std_pack
