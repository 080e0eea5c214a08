// multiview-patches with collapse_noise stores the P − 2C_P equal noise patches once, counted
// P − 2C_P times (DataShape::patch_counts); patch-two-layer weighs them: the same outputs, the same
// training gradient (fused step and exact J_MM) as on the P stored patches. And the authors'
// one-view test points.
#include "mm_harness.hpp"

#include <featurelab/loss.hpp>

#include <catch2/catch.hpp>

using namespace featurelab;
using mm_test::pack;
using mm_test::std_pack;

namespace {

struct Drawn {
  Dataset train, test;
  DataSpec spec;
};

Drawn draw(bool collapse, const std::string& test_views = "both") {
  const mm_test::Overrides params{{"classes", std::int64_t(4)}, {"patches", std::int64_t(12)},
                                  {"collapse_noise", collapse}, {"test_views", test_views}};
  auto d = pack().make<Distribution>("multiview-patches", params, {}, 3);
  Drawn out;
  Rng rng(5);
  d->sample(30, Split::Train, rng, out.train);
  d->sample(200, Split::Test, rng, out.test);
  out.spec = d->spec();
  return out;
}

}  // namespace

TEST_CASE("collapse_noise stores the signal patches and one noise patch, counted P - 2C_P times") {
  const Drawn full = draw(false), collapsed = draw(true);
  const Index d = 8;  // 2k
  REQUIRE(collapsed.spec.shape.dims == std::vector<Index>{3, d});
  CHECK(collapsed.spec.shape.patch_counts == std::vector<double>{1, 1, 10});
  CHECK(collapsed.train.shape.patch_counts == collapsed.spec.shape.patch_counts);
  CHECK(full.spec.shape.patch_counts.empty());
  // The same draws: the stored patches are the full data's first three, whose noise patches are all
  // the third.
  CHECK(collapsed.train.X == full.train.X.leftCols(3 * d));
  for (Index i = 0; i < full.train.size(); ++i) {
    for (Index p = 3; p < 12; ++p) CHECK(full.train.X.row(i).segment(p * d, d) == full.train.X.row(i).segment(2 * d, d));
  }
  CHECK_THROWS_WITH(pack().make<Distribution>("multiview-patches", {{"collapse_noise", true}, {"same_noise", false}}, {}),
                    Catch::Contains("set same_noise = true"));
  CHECK_THROWS_WITH(pack().make<Distribution>("multiview-patches", {{"collapse_noise", true}, {"positions", "random"}}, {}),
                    Catch::Contains("positions = \"fixed\""));
}

TEST_CASE("patch-two-layer on collapsed noise patches: the outputs and training gradients of the full data") {
  const Drawn full = draw(false), collapsed = draw(true);
  for (const std::string activation : {"smoothed-relu", "relu", "identity"}) {
    const mm_test::Overrides params{{"neurons", std::int64_t(3)}, {"activation", activation}, {"init_std", 0.5}};
    auto on_full = pack().make<Model>("patch-two-layer", params, full.spec);
    auto on_collapsed = pack().make<Model>("patch-two-layer", params, collapsed.spec);
    Rng a(9), b(9);
    on_full->init(a);
    on_collapsed->init(b);
    REQUIRE(on_full->parameters() == on_collapsed->parameters());
    INFO(activation);
    Mat out_full(30, 4), out_collapsed(30, 4);
    on_full->forward(full.train.X, out_full);
    on_collapsed->forward(collapsed.train.X, out_collapsed);
    CHECK((out_full - out_collapsed).norm() <= 1e-5 * out_full.norm());
    for (const std::string loss_name : {"cross-entropy", "midpoint-mixup-exact"}) {
      auto loss = loss_name == "cross-entropy" ? std_pack().make<Loss>(loss_name, {}, full.spec)
                                               : pack().make<Loss>(loss_name, {}, full.spec);
      Vec g_full(on_full->trainable_size()), g_collapsed(on_collapsed->trainable_size());
      const Scalar v_full = loss->evaluate_with_gradient(*on_full, Batch::of(full.train), g_full);
      const Scalar v_collapsed = loss->evaluate_with_gradient(*on_collapsed, Batch::of(collapsed.train), g_collapsed);
      INFO(loss_name);
      CHECK(v_collapsed == Approx(v_full).epsilon(1e-5));
      CHECK((g_full - g_collapsed).norm() <= 1e-4 * g_full.norm());
    }
    // forward then backward (the path probes and attacks take), not the fused step
    Vec b_full(on_full->trainable_size()), b_collapsed(on_collapsed->trainable_size());
    const Mat dout = Mat::Constant(30, 4, Scalar(0.25));
    on_full->backward(full.train.X, dout, b_full);
    on_collapsed->backward(collapsed.train.X, dout, b_collapsed);
    CHECK((b_full - b_collapsed).norm() <= 1e-4 * b_full.norm());
  }
}

TEST_CASE("test_views = one: the test points carry one of the class's features in both signal patches") {
  const Drawn drawn = draw(false, "one");
  const Index d = 8;
  int first = 0, second = 0;
  for (Index i = 0; i < drawn.test.size(); ++i) {
    const Index y = drawn.test.y(i);
    const auto p0 = drawn.test.X.row(i).segment(0, d), p1 = drawn.test.X.row(i).segment(d, d);
    const bool v1 = p0(2 * y) > 0;
    (v1 ? first : second)++;
    const Index f = v1 ? 2 * y : 2 * y + 1;  // the one feature, in both patches, coefficients in [δ1, δ2 − δ1]
    CHECK(p0(f) >= 0.1 - 1e-6);
    CHECK(p0(f) <= 0.9 + 1e-6);
    CHECK(p1(f) >= 0.1 - 1e-6);
    CHECK(p1(f) <= 0.9 + 1e-6);
    CHECK(p0.sum() == Approx(p0(f)));
    CHECK(p1.sum() == Approx(p1(f)));
  }
  CHECK(first > 60);  // a fair coin over 200 points
  CHECK(second > 60);
  // Training points stay two-view.
  for (Index i = 0; i < drawn.train.size(); ++i) {
    const Index y = drawn.train.y(i);
    CHECK(drawn.train.X(i, 2 * y) + drawn.train.X(i, d + 2 * y + 1) == Approx(1.0));
  }
}
