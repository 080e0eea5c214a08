// The feature-amplification pack on its own: the reference network f*(x) = |<μ1,x>| − |<μ2,x>| with exact
// input gradients.
#include <featurelab/gradient_check.hpp>
#include <featurelab/testing.hpp>

#include <catch2/catch.hpp>

#include <cmath>

using namespace featurelab;

namespace {

testing::Harness& pack() { return testing::pack(FEATURE_AMPLIFICATION_PLUGIN); }
testing::Harness& std_pack() { return testing::pack(FEATURELAB_STD_PLUGIN); }

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
