// The feature-amplification pack on its own: label noise (exact fractions, per-cluster rates, the
// clean labels kept) and the reference network f*(x) = |<μ1,x>| − |<μ2,x>| with exact input gradients.
#include <featurelab/gradient_check.hpp>
#include <featurelab/testing.hpp>

#include <catch2/catch.hpp>

#include <cmath>

using namespace featurelab;

namespace {

testing::Harness& pack() {
  static testing::Harness h(FEATURE_AMPLIFICATION_PLUGIN);
  return h;
}
testing::Harness& std_pack() {
  static testing::Harness h(FEATURELAB_STD_PLUGIN);
  return h;
}

struct Xor {
  std::shared_ptr<Distribution> dist;
  DataSpec spec;
  FeatureSet features;
  Dataset train, test;
};

Xor xor_data(Index n, int dim = 2) {
  Xor x;
  x.dist = std_pack().make<Distribution>("xor-clusters", {{"dim", std::int64_t(dim)}}, {});
  x.spec = x.dist->spec();
  x.features = x.dist->features();
  Rng rng(4);
  x.dist->sample(n, Split::Train, rng, x.train);
  x.dist->sample(n, Split::Test, rng, x.test);
  return x;
}

}  // namespace

TEST_CASE("label-noise flips an exact fraction and keeps the clean labels") {
  Xor x = xor_data(1000);
  const IVec before = x.train.y;
  auto noise = pack().make<Transform>("label-noise", {{"mode", std::string("exact")}, {"eta", 0.15}, {"apply_to", std::string("train")}}, x.spec);
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
  auto noise = pack().make<Transform>("label-noise", {{"mode", std::string("per-cluster")},
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
  CHECK_THROWS_WITH(pack().make<Transform>("label-noise", {{"mode", std::string("per-cluster")}}, x.spec),
                    Catch::Contains("eta_per_cluster"));
  CHECK_THROWS_WITH(pack().make<Transform>("label-noise", {{"eta_per_cluster", std::vector<double>{0.1}}}, x.spec),
                    Catch::Contains("per-cluster"));
  DataSpec multi = x.spec;
  multi.classes = 3;
  CHECK_THROWS_WITH(pack().make<Transform>("label-noise", {}, multi), Catch::Contains("binary"));
}

TEST_CASE("xor-oracle computes |<mu1,x>| - |<mu2,x>| and classifies clean XOR data") {
  Xor x = xor_data(500, 5);
  auto oracle = pack().make<Model>("xor-oracle", {}, x.spec, 1, &x.features);
  Mat out(x.test.size(), 1);
  oracle->forward(x.test.X, out);
  for (Index i = 0; i < x.test.size(); ++i) {
    CHECK(out(i, 0) == Approx(std::abs(x.test.X(i, 0)) - std::abs(x.test.X(i, 1))).margin(1e-5));
    CHECK((out(i, 0) > 0) == (x.test.meta.at("y_clean")(i) == 1));
  }
  // Input gradients (for attacks) against finite differences, away from the kinks.
  Mat dX(3, 5), probe(3, 5);
  probe << 0.7, 0.2, 0.1, -0.3, 0.5, -0.6, 0.3, 0, 0.2, 0.1, 0.1, -0.9, 0.4, 0, 0;
  Mat ones = Mat::Ones(3, 1);
  Mat o(3, 1);
  oracle->forward(probe, o);
  oracle->input_gradient(probe, ones, dX);
  CHECK(dX(0, 0) == Approx(1));
  CHECK(dX(0, 1) == Approx(-1));
  CHECK(dX(1, 0) == Approx(-1));
  CHECK(dX(2, 1) == Approx(1));
  CHECK_THROWS_WITH(pack().make<Model>("xor-oracle", {}, x.spec, 1, nullptr), Catch::Contains("means"));
}
