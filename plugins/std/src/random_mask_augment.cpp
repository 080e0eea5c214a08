// Random masks: the paper's (q = 1/2, complementary) drawn and applied in one pass over the batch; any other drawn
// as one K×D 0/1 matrix into a reused buffer, the views then two whole-batch elementwise products.
#include "random_mask_augment.hpp"

#include <algorithm>
#include <cstdint>

namespace featurelab::std_pack {

Schema RandomMaskAugment::schema() {
  Schema s = ViewPairs::schema();
  s.real("keep", 0.5, "q: each coordinate is kept in the anchor with probability q; the views are rescaled by 1/q and "
                      "1/(1−q) (the paper: q = 1/2, factor 2)").above(0).below(1);
  s.choice("mode", "complementary", {"complementary", "independent"},
           "complementary: x⁺⁺ = (I−D)x/(1−q), the paper's masks; independent: x⁺⁺ = D′x/q with a second, independent "
           "mask (second moments equal the raw data's: no decoupling)");
  return s;
}

RandomMaskAugment::RandomMaskAugment(const Params& params, Context& context)
    : ViewPairs(params, context),
      keep_(params.real("keep")),
      complementary_(params.str("mode") == "complementary") {}

void RandomMaskAugment::draw_mask(Rng& rng) {
  Scalar* m = mask_.data();
  const Index size = mask_.size();
  if (keep_ == 0.5) {
    // The paper's q = 1/2: 64 fair coins from each 64-bit draw of the engine.
    for (Index i = 0; i < size; i += 64) {
      std::uint64_t bits = rng.engine()();
      for (Index k = i; k < std::min(size, i + 64); ++k, bits >>= 1) m[k] = static_cast<Scalar>(bits & 1U);
    }
    return;
  }
  for (Index k = 0; k < size; ++k) m[k] = rng.uniform() < keep_ ? Scalar(1) : Scalar(0);
}

namespace {

// The paper's masks (q = 1/2, complementary) drawn and applied in one pass: bit k of a 64-bit draw keeps value
// i + k in the anchor (and drops it from the positive), in the order draw_mask fills the mask, and each value is the
// same product as the two whole-batch passes take, (x·m)·(1/q) and (x·(1 − m))·(1/(1 − q)): the same bits, without
// writing the K×D mask and reading it back (at the augmentation sweep's d1 = 2048, K = 8192: 134 MB a step).
template <Index Width>
inline void apply_word(const Scalar* x, Scalar* anchors, Scalar* positives, std::uint64_t bits, Scalar to_anchor,
                       Scalar to_positive) {
  for (Index k = 0; k < Width; ++k) {
    const Scalar m = static_cast<Scalar>((bits >> k) & 1U);
    anchors[k] = x[k] * m * to_anchor;
    positives[k] = x[k] * (Scalar(1) - m) * to_positive;
  }
}

}  // namespace

void RandomMaskAugment::views(ConstMatRef X, MatRef anchors, MatRef positives, Rng& rng) {
  const bool contiguous = X.outerStride() == X.cols() && anchors.outerStride() == anchors.cols() &&
                          positives.outerStride() == positives.cols();
  if (keep_ == 0.5 && complementary_ && contiguous) {
    const Scalar to_anchor = static_cast<Scalar>(1 / keep_), to_positive = static_cast<Scalar>(1 / (1 - keep_));
    const Index size = X.size();
    Index i = 0;
    for (; i + 64 <= size; i += 64) {
      apply_word<64>(X.data() + i, anchors.data() + i, positives.data() + i, rng.engine()(), to_anchor, to_positive);
    }
    if (i < size) {
      std::uint64_t bits = rng.engine()();
      for (; i < size; ++i, bits >>= 1) {
        apply_word<1>(X.data() + i, anchors.data() + i, positives.data() + i, bits, to_anchor, to_positive);
      }
    }
    return;
  }
  mask_.resize(X.rows(), X.cols());
  draw_mask(rng);
  anchors.array() = X.array() * mask_.array() * static_cast<Scalar>(1 / keep_);
  if (complementary_) {
    positives.array() = X.array() * (Scalar(1) - mask_.array()) * static_cast<Scalar>(1 / (1 - keep_));
    return;
  }
  draw_mask(rng);
  positives.array() = X.array() * mask_.array() * static_cast<Scalar>(1 / keep_);
}

}  // namespace featurelab::std_pack
