// The pack's own tests (Catch2), on the built plugin and the installed std pack, loaded together by
// the SDK's harness exactly as featurelab loads them: the quadratic model's gradients against
// finite differences through std's logistic loss, and the margin-stats probe on known margins.
#include <catch2/catch.hpp>

#include <featurelab/gradient_check.hpp>
#include <featurelab/testing.hpp>

#include <cstdint>

using namespace featurelab;

namespace {

// This pack and std (for its losses): objects made by the harness keep their library loaded.
testing::Harness& packs() {
  static testing::Harness h({MARGINS_PLUGIN, FEATURELAB_STD_PLUGIN});
  return h;
}

Dataset sample(Index n, Index dim, std::uint64_t seed) {
  Dataset data;
  Rng rng(seed);
  data.resize(n, dim);
  rng.fill_normal(data.X);
  for (Index i = 0; i < n; ++i) data.y(i) = data.X(i, 0) * data.X(i, 1) > 0 ? 1 : 0;  // XOR-like labels
  data.classes = 2;
  return data;
}

// f(x) = x_0: margins are ±x_0.
class FirstCoordinate : public Model {
 public:
  FirstCoordinate() { allocate_parameters(); }
  Index outputs() const override { return 1; }
  void init(Rng&) override {}
  void forward(ConstMatRef X, MatRef out) override { out = X.col(0); }
  void backward(ConstMatRef, ConstMatRef, VecRef) override {}
};

}  // namespace

TEST_CASE("quadratic: parameter gradients through std's logistic loss match finite differences") {
  DataSpec spec;
  spec.dim = 3;
  spec.classes = 2;
  auto model = packs().make<Model>("quadratic", {{"init_scale", 0.5}}, spec);
  auto loss = packs().make<Loss>("logistic", {}, spec);
  Rng rng(1);
  model->init(rng);
  const Dataset data = sample(32, 3, 2);
  const GradientCheckResult result = check_gradient(*model, *loss, Batch::of(data));
  INFO(result.report);
  CHECK(result.ok);
}

TEST_CASE("quadratic: input gradients match finite differences") {
  DataSpec spec;
  spec.dim = 3;
  spec.classes = 2;
  auto model = packs().make<Model>("quadratic", {}, spec);
  Rng rng(3);
  model->init(rng);
  const Dataset data = sample(16, 3, 4);
  const GradientCheckResult result = check_input_gradient(*model, Batch::of(data));
  INFO(result.report);
  CHECK(result.ok);
}

TEST_CASE("margin-stats: min, mean and the fraction below the threshold of known margins") {
  auto probe = packs().make<Probe>("margin-stats", {{"threshold", 0.5}});
  Dataset data;
  data.X = Mat(4, 2);
  data.X << 1, 0, -2, 0, 0.25, 0, 3, 0;
  data.y = IVec(4);
  data.y << 1, 0, 1, 0;  // signed labels +1, -1, +1, -1 -> margins 1, 2, 0.25, -3
  data.classes = 2;
  FirstCoordinate model;
  FeatureSet features;
  std::vector<NamedAttack> attacks;
  auto loss = packs().make<Loss>("logistic", {});
  Measurements out;
  probe->measure(ProbeInput{model, *loss, data, data, features, attacks, 0}, out);
  std::map<std::string, double> got(out.scalars().begin(), out.scalars().end());
  CHECK(got.size() == 6);  // min, mean, below for train and test
  CHECK(got["train.min"] == Approx(-3.0));
  CHECK(got["train.mean"] == Approx(0.0625));
  CHECK(got["train.below"] == Approx(0.5));
}

TEST_CASE("square: a layer in std's network, its gradient against finite differences") {
  const DataSpec spec = testing::spec(3, 2);
  const Value layers = testing::layers({testing::layer("linear", {{"out", std::int64_t(4)}}), testing::layer("square"),
                                        testing::layer("linear")});
  auto model = packs().make<Model>("network", {{"layer", layers}}, spec);
  auto loss = packs().make<Loss>("logistic", {}, spec);
  Rng rng(2);
  model->init(rng);
  const auto result = check_gradient(*model, *loss, Batch::of(sample(16, 3, 5)));
  INFO(result.report);
  CHECK(result.ok);
}
