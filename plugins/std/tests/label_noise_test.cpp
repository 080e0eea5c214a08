// label-noise on XOR clusters: exact fractions, per-cluster rates, the clean labels kept, and the refusals.
#include "std_harness.hpp"

#include <catch2/catch.hpp>

#include <algorithm>

using namespace featurelab;
using std_test::harness;

namespace {

struct Xor {
  std::shared_ptr<Distribution> dist;
  DataSpec spec;
  Dataset train, test;
};

Xor xor_data(Index n) {
  Xor x;
  x.dist = harness().make<Distribution>("xor-clusters", {}, {});
  x.spec = x.dist->spec();
  Rng rng(4);
  x.dist->sample(n, Split::Train, rng, x.train);
  x.dist->sample(n, Split::Test, rng, x.test);
  return x;
}

}  // namespace

TEST_CASE("label-noise flips an exact fraction and keeps the clean labels") {
  Xor x = xor_data(1000);
  const IVec before = x.train.y;
  auto noise = harness().make<Transform>(
      "label-noise", {{"mode", std::string("exact")}, {"eta", 0.15}, {"apply_to", std::string("train")}}, x.spec);
  const DataSpec out = noise->output_spec(x.spec);
  CHECK(std::count(out.meta.begin(), out.meta.end(), "is_noisy") == 1);
  Rng rng(1);
  noise->apply(x.train, x.test, rng);
  const VecD& noisy = x.train.meta.at("is_noisy");
  CHECK(noisy.sum() == 150);
  for (Index i = 0; i < 1000; ++i) {
    CHECK((x.train.y(i) != before(i)) == (noisy(i) == 1));
    CHECK(x.train.meta.at("y_clean")(i) == before(i));
  }
  CHECK(x.test.meta.at("is_noisy").sum() == 0);  // apply_to = train leaves the test labels
}

TEST_CASE("label-noise per cluster flips only where asked, at the asked rate") {
  Xor x = xor_data(8000);
  auto noise = harness().make<Transform>("label-noise", {{"mode", std::string("per-cluster")},
                                                         {"eta_per_cluster", std::vector<double>{0.5, 0, 0, 0}}}, x.spec);
  Rng rng(2);
  noise->apply(x.train, x.test, rng);
  double flipped0 = 0, n0 = 0;
  for (Index i = 0; i < x.train.size(); ++i) {
    const auto c = static_cast<int>(x.train.meta.at("cluster")(i));
    const bool flipped = x.train.meta.at("is_noisy")(i) == 1;
    if (c == 0) {
      flipped0 += flipped;
      n0 += 1;
    } else {
      CHECK_FALSE(flipped);
    }
  }
  CHECK(flipped0 / n0 == Approx(0.5).margin(0.05));
  CHECK_THROWS_WITH(harness().make<Transform>("label-noise", {{"mode", std::string("per-cluster")}}, x.spec),
                    Catch::Contains("eta_per_cluster"));
  CHECK_THROWS_WITH(harness().make<Transform>("label-noise", {{"eta_per_cluster", std::vector<double>{0.1}}}, x.spec),
                    Catch::Contains("per-cluster"));
  DataSpec multi = x.spec;
  multi.classes = 3;
  CHECK_THROWS_WITH(harness().make<Transform>("label-noise", {}, multi), Catch::Contains("binary"));
}
