// The feature-amplification pack on its own: the reference network f*(x) = |<μ1,x>| − |<μ2,x>| with exact
// input gradients.
#include <featurelab/gradient_check.hpp>
#include <featurelab/model_comparison.hpp>
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

namespace {

struct ProbeRun {
  Measurements out;
  double value(const std::string& name) const {
    for (const auto& [n, v] : out.scalars()) {
      if (n == name) return v;
    }
    FAIL("no metric " << name);
    return 0;
  }
  const Table* table(const std::string& name) const {
    for (const auto& [n, t] : out.tables()) {
      if (n == name) return &t;
    }
    return nullptr;
  }
};

// The two-layer net f(x) = (|<u1,x>| − |<u2,x>|)/√m' with u1, u2 the means turned by `degrees` in their plane,
// and `idle` neurons per sign along e3 (orthogonal to both means: outside every candidate set).
std::shared_ptr<Model> rotated_x(const Xor& x, double degrees, Index idle) {
  const Index half = 2 + idle;
  auto net = std_pack().make<Model>("two-layer", {{"width", std::int64_t(2 * half)}, {"bias", false},
                                                  {"second_layer", std::string("balanced")}}, x.spec);
  const double r = degrees * 3.14159265358979323846 / 180;
  Mat u = Mat::Zero(2, x.spec.dim);
  u(0, 0) = Scalar(std::cos(r));
  u(0, 1) = Scalar(std::sin(r));
  u(1, 0) = Scalar(-std::sin(r));
  u(1, 1) = Scalar(std::cos(r));
  MatMap W = net->block("W");
  W.setZero();
  MatMap a = net->block("a");  // the balanced second layer: +1/√m for the first half, −1/√m for the rest
  for (Index j = 0; j < 2 * half; ++j) a(0, j) = Scalar((j < half ? 1 : -1) / std::sqrt(double(2 * half)));
  for (Index s = 0; s < 2; ++s) {  // s = 0: the positive half (serves μ1), s = 1: the negative half (μ2)
    W.row(s * half) = u.row(s);
    W.row(s * half + 1) = -u.row(s);
    for (Index k = 0; k < idle; ++k) W(s * half + 2 + k, 2) = Scalar(0.01);
  }
  return net;
}

}  // namespace

TEST_CASE("decision-grid measures the X of the reference classifier on the plane and on the unit circle") {
  Xor x = xor_data(400, 3);
  auto loss = std_pack().make<Loss>("logistic", {}, x.spec);
  std::vector<NamedAttack> attacks;
  auto grid = [&](Model& model) {
    ProbeRun run;
    auto probe = pack().make<Probe>("decision-grid", {{"resolution", std::int64_t(41)}}, x.spec);
    probe->measure(ProbeInput{model, *loss, x.train, x.test, x.features, attacks, 0}, run.out);
    return run;
  };
  // The reference itself: its regions everywhere, four sign changes on the diagonals (to the circle's 0.05°).
  auto oracle = pack().make<Model>("xor-oracle", {}, x.spec, 1, &x.features);
  const ProbeRun exact = grid(*oracle);
  CHECK(exact.value("oracle_agreement") == 1);
  CHECK(exact.value("boundary_crossings") == 4);
  CHECK(exact.value("boundary_angle_max_deg") <= 0.051);
  REQUIRE(exact.table("sign"));
  CHECK(exact.table("sign")->values.rows() == 41);
  // The training points once, all of them, with their observed label as ±1 (no label noise: no noisy table).
  REQUIRE(exact.table("clean_points"));
  CHECK(exact.table("clean_points")->values.rows() == 400);
  CHECK_FALSE(exact.table("noisy_points"));
  // The same X turned by 10°: each of the four boundary rays is 10° off its diagonal, a 10° wedge of disagreement each.
  auto turned = rotated_x(x, 10, 0);
  const ProbeRun off = grid(*turned);
  CHECK(off.value("boundary_crossings") == 4);
  CHECK(off.value("boundary_angle_max_deg") == Approx(10).margin(0.06));
  CHECK(off.value("oracle_agreement") == Approx(1 - 40.0 / 360).margin(0.03));
  // No boundary at all (f > 0 everywhere it is not 0): 0 sign changes, reported as the largest angle, 45°.
  auto positive = rotated_x(x, 0, 0);
  positive->block("a").setConstant(1);
  CHECK(grid(*positive).value("boundary_crossings") == 0);
  CHECK(grid(*positive).value("boundary_angle_max_deg") == 45);
}

TEST_CASE("subnetwork reads the candidate neurons at t = 0 and the margins of their sum") {
  Xor x = xor_data(400, 3);
  auto loss = std_pack().make<Loss>("logistic", {}, x.spec);
  std::vector<NamedAttack> attacks;
  // Flip the label of every fifth training point: those are the noisy ones.
  VecD& noisy = x.train.meta.at("is_noisy");
  for (Index i = 0; i < x.train.size(); i += 5) {
    x.train.y(i) = 1 - x.train.y(i);
    noisy(i) = 1;
  }
  // Four neurons along ±μ1, ±μ2 (J) and one idle neuron per sign along e3 (not in J): f^J = f = (|x1| − |x2|)/√6.
  auto net = rotated_x(x, 0, 1);
  auto probe = pack().make<Probe>("subnetwork", {}, x.spec);
  ProbeRun run;
  probe->measure(ProbeInput{*net, *loss, x.train, x.test, x.features, attacks, 0}, run.out);
  CHECK(run.value("size_fraction") == Approx(4.0 / 6));
  CHECK(run.value("sign_agreement") == 1);
  CHECK(run.value("clean_min") > 0);   // Lemma 4.9: clean points right ...
  CHECK(run.value("noisy_max") < 0);   // ... noisy ones wrong
  double smallest = 1e9;
  for (Index i = 0; i < x.train.size(); ++i) {
    if (noisy(i) > 0.5) continue;
    const double margin = (std::abs(x.train.X(i, 0)) - std::abs(x.train.X(i, 1))) / std::sqrt(6.0);
    smallest = std::min(smallest, x.train.y(i) > 0.5 ? margin : -margin);
  }
  CHECK(run.value("clean_min") == Approx(smallest).epsilon(1e-4));
  // J is fixed at the first measurement: turning the idle neurons onto μ1 afterwards adds them to f, not to f^J.
  net->block("W").row(2) = x.features.at("means").row(0) * Scalar(5);
  ProbeRun later;
  probe->measure(ProbeInput{*net, *loss, x.train, x.test, x.features, attacks, 1}, later.out);
  CHECK(later.value("size_fraction") == Approx(4.0 / 6));
  CHECK(later.value("sign_agreement") < 1);
}

// xor-oracle as std's layers: linear (4, no bias, fixed: W = [μ1; −μ1; μ2; −μ2]) → relu → linear (1, fixed:
// a = [1, 1, −1, −1]), on the oracle's own blocks: the same outputs and input gradients (attacks use them).
TEST_CASE("xor-oracle composed of std layers equals the hand-written oracle") {
  Xor x = xor_data(200, 5);
  auto oracle = pack().make<Model>("xor-oracle", {}, x.spec, 1, &x.features);
  const auto fixed_linear = [](std::int64_t out, const char* block) {
    ComponentSpec l = testing::layer("linear", {{"out", out}, {"bias", false}, {"init", std::string("zero")},
                                                {"trainable", false}});
    l.block_names = {block};
    return l;
  };
  auto composed = std_pack().make<Model>(
      "network", {{"layer", testing::layers({fixed_linear(4, "W"), testing::layer("relu"), fixed_linear(1, "a")})}},
      x.spec, 1, &x.features);
  const testing::ModelComparison c = testing::compare_models(*oracle, *composed, x.test.X);
  CHECK(c.failures(1e-5, 0.1) == "");
}
