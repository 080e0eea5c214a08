// mixup and midpoint-mixup: mixed inputs and soft targets are the same convex combination.
#include "std_harness.hpp"

#include <catch2/catch.hpp>

#include <cmath>
#include <set>

using namespace featurelab;
using std_test::harness;

namespace {
Dataset labelled(Index n, int k) {
  Dataset d;
  d.X.resize(n, 3);
  Rng rng(2);
  rng.fill_normal(d.X);
  d.y.resize(n);
  for (Index i = 0; i < n; ++i) d.y(i) = static_cast<std::int32_t>(i % k);
  d.classes = k;
  return d;
}
}  // namespace

TEST_CASE("midpoint-mixup averages pairs of inputs and their one-hot labels") {
  const Dataset in = labelled(50, 4);
  auto mix = harness().make<Augment>("midpoint-mixup", {}, {});
  Dataset out;
  Rng rng(3);
  mix->apply(Batch::of(in), out, rng);
  REQUIRE(out.T.rows() == 50);
  for (Index i = 0; i < 50; ++i) {
    CHECK(out.T.row(i).sum() == Approx(1));
    // Find the partner: the targets say which classes were mixed, X says which sample.
    bool found = false;
    for (Index j = 0; j < 50 && !found; ++j) {
      found = (out.X.row(i) - Scalar(0.5) * (in.X.row(i) + in.X.row(j))).norm() < 1e-5 &&
              out.T(i, in.y(i)) >= Scalar(0.5) - 1e-6 && out.T(i, in.y(j)) >= Scalar(0.5) - 1e-6;
    }
    CHECK(found);
  }
}

TEST_CASE("mixup draws lambda from Beta(a, a) and mixes targets with it") {
  const Dataset in = labelled(400, 2);
  auto mix = harness().make<Augment>("mixup", {{"alpha", 1.0}, {"lambda_per", std::string("pair")}}, {});
  Dataset out;
  Rng rng(4);
  mix->apply(Batch::of(in), out, rng);
  double mean_mixing = 0;
  for (Index i = 0; i < 400; ++i) {
    CHECK(out.T.row(i).sum() == Approx(1));
    mean_mixing += std::min(out.T(i, 0), out.T(i, 1));
  }
  // For cross-class pairs (half of them) min(λ, 1−λ) has mean 1/4 under U[0,1]; same-class pairs give 0.
  CHECK(mean_mixing / 400 == Approx(0.125).margin(0.03));
  auto per_batch = harness().make<Augment>("mixup", {{"alpha", 0.4}}, {});
  Dataset b;
  per_batch->apply(Batch::of(in), b, rng);
  // One λ for the whole batch: every mixed row of a cross-class pair has the same weight.
  std::set<long> weights;
  for (Index i = 0; i < 400; ++i) {
    if (b.T(i, 0) > 0 && b.T(i, 0) < 1) weights.insert(std::lround(std::max(b.T(i, 0), b.T(i, 1)) * 1e4));
  }
  CHECK(weights.size() == 1);
}
