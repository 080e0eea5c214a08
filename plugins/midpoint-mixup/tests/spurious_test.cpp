// spurious-concat's channel concatenation (a fixed partner-class image per class) and spurious-gamma's γ redrawn at
// every access.
#include "mm_harness.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <map>

using namespace featurelab;
using mm_test::pack;

TEST_CASE("spurious-concat adds a scaled partner-class image in new channels, test gets zeros") {
  DataSpec spec;
  spec.dim = 3;
  spec.classes = 4;
  spec.shape.dims = {1, 3};
  auto t = pack().make<Transform>("spurious-concat", {}, spec);
  const DataSpec out = t->output_spec(spec);
  CHECK(out.dim == 6);
  CHECK(out.shape.dims == std::vector<Index>{2, 3});
  Dataset train, test;
  train.resize(40, 3);
  train.classes = 4;
  for (Index i = 0; i < 40; ++i) {
    train.y(i) = static_cast<std::int32_t>(i % 4);
    train.X.row(i).setConstant(static_cast<Scalar>(1 + i % 4));  // the class is readable from the pixels
  }
  test = train;
  Rng rng(3);
  t->apply(train, test, rng);
  REQUIRE(train.X.cols() == 6);
  std::map<Index, Index> partner;
  for (Index i = 0; i < 40; ++i) {
    const double g = train.meta.at("gamma")(i);
    const Index p = static_cast<Index>(train.meta.at("partner_class")(i));
    CHECK(p != train.y(i));
    CHECK(train.X(i, 0) == Approx(g * (1 + i % 4)));
    CHECK(train.X(i, 3) == Approx((1 - g) * (1 + p)));  // an image of the partner class
    if (partner.count(train.y(i))) CHECK(partner[train.y(i)] == p);  // fixed per class
    partner[train.y(i)] = p;
  }
  for (const auto& [c, p] : partner) CHECK(partner[p] == c);  // a perfect matching
  CHECK(test.X.rightCols(3).isZero());
  for (Index i = 0; i < 40; ++i) CHECK(test.X(i, 0) == Approx(1 + i % 4));  // test images unscaled
  spec.classes = 3;
  CHECK_THROWS_WITH(pack().make<Transform>("spurious-concat", {}, spec), Catch::Contains("even number of classes"));
}

TEST_CASE("per-access gamma: spurious-concat stores the halves at γ = 1/2, spurious-gamma redraws γ each batch") {
  DataSpec spec;
  spec.dim = 3;
  spec.classes = 2;
  spec.shape.dims = {1, 3};
  auto t = pack().make<Transform>("spurious-concat", {{"gamma", std::string("per-access")}}, spec);
  const DataSpec out_spec = t->output_spec(spec);
  CHECK(std::find(out_spec.meta.begin(), out_spec.meta.end(), "gamma") == out_spec.meta.end());
  CHECK(std::find(out_spec.meta.begin(), out_spec.meta.end(), "stored_gamma") != out_spec.meta.end());
  Dataset train, test;
  train.resize(20, 3);
  train.classes = 2;
  for (Index i = 0; i < 20; ++i) {
    train.y(i) = static_cast<std::int32_t>(i % 2);
    train.X.row(i).setConstant(static_cast<Scalar>(1 + i % 2));
  }
  test = train;
  Rng rng(5);
  t->apply(train, test, rng);
  const Mat unscaled = train.X * Scalar(2);
  for (Index i = 0; i < 20; ++i) {
    // Both halves at γ = 1/2: a point of the training distribution, which accuracy.train measures.
    CHECK(train.X(i, 0) == Scalar(0.5) * Scalar(1 + i % 2));
    CHECK(train.X(i, 3) == Scalar(0.5) * Scalar(1 + (1 - i % 2)));  // the partner's image
    CHECK(train.meta["stored_gamma"](i) == 0.5);
  }
  auto gamma = pack().make<Augment>("spurious-gamma", {{"gamma_low", 0.2}, {"gamma_high", 0.9}}, out_spec);
  Dataset a, b;
  gamma->apply(Batch::of(train), a, rng);
  gamma->apply(Batch::of(train), b, rng);
  for (Index i = 0; i < 20; ++i) {
    const Scalar g = a.X(i, 0) / unscaled(i, 0);
    CHECK(g >= Scalar(0.2));
    CHECK(g <= Scalar(0.9));
    CHECK(a.X(i, 1) == g * unscaled(i, 1));  // γx and (1 − γ)x' to the bit
    CHECK(a.X(i, 4) == (1 - g) * unscaled(i, 4));
    CHECK(a.y(i) == train.y(i));
  }
  CHECK((a.X - b.X).norm() > 0);  // redrawn at the next access
  CHECK_THROWS_WITH(pack().make<Augment>("spurious-gamma", {}, spec), Catch::Contains("put that transform before it"));
  DataSpec odd = out_spec;
  odd.dim = 7;
  CHECK_THROWS_WITH(pack().make<Augment>("spurious-gamma", {}, odd), Catch::Contains("odd"));
}
