// random-mask and identity-views: the view layout (anchors, positives, raw negatives, their labels and roles),
// the masks' complementarity and rescaling, and a batch without negatives refused with the fix.
#include "std_harness.hpp"

#include <featurelab/views.hpp>

#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdint>
#include <cstring>

using namespace featurelab;
using std_test::harness;

namespace {

// n Gaussian samples in dimension 16 with labels i % 3.
Dataset gaussian(Index n, Rng& rng) {
  Dataset d;
  d.resize(n, 16);
  d.classes = 3;
  rng.fill_normal(d.X);
  for (Index i = 0; i < n; ++i) d.y(i) = static_cast<std::int32_t>(i % 3);
  return d;
}

DataSpec spec16() {
  DataSpec s;
  s.dim = 16;
  s.classes = 3;
  return s;
}

}  // namespace

TEST_CASE("view augments: anchors, positives and raw negatives with their roles, and a batch without negatives refused") {
  Rng rng(5);
  const Dataset raw = gaussian(7, rng);
  auto mask = harness().make<Augment>("random-mask", {{"positives", std::int64_t(4)}}, spec16());
  Dataset views;
  mask->apply(Batch::of(raw), views, rng);
  REQUIRE(views.size() == 11);
  REQUIRE(views.T.cols() == 1);
  for (Index i = 0; i < 11; ++i) {
    CHECK(views.T(i, 0) == (i < 4 ? kViewAnchor : i < 8 ? kViewPositive : kViewNegative));
    CHECK(views.y(i) == raw.y(i < 4 ? i : i - 4));  // anchor k and positive K + k: row k; negative 2K + j: row K + j
  }
  CHECK(view_pairs(Batch::of(views)) == 4);
  // Complementary: every coordinate is in exactly one view, doubled: x⁺ + x⁺⁺ = 2x.
  CHECK((views.X.topRows(4) + views.X.middleRows(4, 4) - 2 * raw.X.topRows(4)).cwiseAbs().maxCoeff() < 1e-6);
  CHECK((views.X.topRows(4).array() * views.X.middleRows(4, 4).array()).cwiseAbs().maxCoeff() == 0);
  CHECK(views.X.bottomRows(3) == raw.X.bottomRows(3));
  const Dataset short_batch = gaussian(4, rng);
  CHECK_THROWS_WITH(mask->apply(Batch::of(short_batch), views, rng),
                    Catch::Contains("random-mask") && Catch::Contains("K + N") && Catch::Contains("batch"));
}

TEST_CASE("random-mask rescales by 1/q and 1/(1 − q), independent masks overlap, identity-views copies") {
  Rng rng(6);
  const Dataset raw = gaussian(50, rng);
  Dataset views;
  auto quarter = harness().make<Augment>("random-mask", {{"positives", std::int64_t(40)}, {"keep", 0.25}}, spec16());
  quarter->apply(Batch::of(raw), views, rng);
  // Complementary at q: q·x⁺ + (1 − q)·x⁺⁺ = x, and about a quarter of the coordinates are in the anchor.
  CHECK((Scalar(0.25) * views.X.topRows(40) + Scalar(0.75) * views.X.middleRows(40, 40) - raw.X.topRows(40))
            .cwiseAbs()
            .maxCoeff() < 1e-5);
  const double kept = static_cast<double>((views.X.topRows(40).array() != 0).count()) / (40.0 * 16);
  CHECK(kept == Approx(0.25).margin(0.05));
  auto independent = harness().make<Augment>(
      "random-mask", {{"positives", std::int64_t(40)}, {"mode", std::string("independent")}}, spec16());
  independent->apply(Batch::of(raw), views, rng);
  const double both = static_cast<double>(
                          ((views.X.topRows(40).array() != 0) && (views.X.middleRows(40, 40).array() != 0)).count()) /
                      (40.0 * 16);
  CHECK(both == Approx(0.25).margin(0.05));  // two independent masks of q = 1/2 share a quarter of the coordinates
  auto identity = harness().make<Augment>("identity-views", {{"positives", std::int64_t(40)}}, spec16());
  identity->apply(Batch::of(raw), views, rng);
  CHECK(views.X.topRows(40) == raw.X.topRows(40));
  CHECK(views.X.middleRows(40, 40) == raw.X.topRows(40));
  CHECK(views.X.bottomRows(10) == raw.X.bottomRows(10));
  CHECK(view_pairs(Batch::of(views)) == 40);
}

// The paper's masks (q = 1/2, complementary) are drawn and applied in one pass: the views are the two-pass form's bit
// for bit, from the same 64-bit draws (bit k of word w keeps value 64w + k of the K×D block in the anchor), with a
// last partial word (K·D = 7·13 = 91 values).
TEST_CASE("random-mask at q = 1/2: one pass equals the mask drawn from the same words and applied, bit for bit") {
  Rng rng(8);
  Dataset raw;
  raw.resize(9, 13);
  raw.classes = 2;
  rng.fill_normal(raw.X);
  for (Index i = 0; i < 9; ++i) raw.y(i) = static_cast<std::int32_t>(i % 2);
  DataSpec spec;
  spec.dim = 13;
  spec.classes = 2;
  auto mask = harness().make<Augment>("random-mask", {{"positives", std::int64_t(7)}}, spec);
  Rng draws(21), same(21);
  Dataset views;
  mask->apply(Batch::of(raw), views, draws);
  Mat m(7, 13);
  for (Index i = 0; i < m.size(); i += 64) {
    std::uint64_t bits = same.engine()();
    for (Index k = i; k < std::min<Index>(m.size(), i + 64); ++k, bits >>= 1) m.data()[k] = static_cast<Scalar>(bits & 1U);
  }
  const Mat anchors = (raw.X.topRows(7).array() * m.array() * Scalar(2)).matrix();
  const Mat positives = (raw.X.topRows(7).array() * (Scalar(1) - m.array()) * Scalar(2)).matrix();
  const std::size_t bytes = sizeof(Scalar) * 7 * 13;  // memcmp: a −0 where the two-pass form has +0 would differ
  CHECK(std::memcmp(views.X.row(0).data(), anchors.data(), bytes) == 0);
  CHECK(std::memcmp(views.X.row(7).data(), positives.data(), bytes) == 0);
  CHECK(draws.engine()() == same.engine()());  // as many words drawn
}
