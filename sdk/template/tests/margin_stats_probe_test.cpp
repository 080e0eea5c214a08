// Test of the margin-stats probe against a hand-made model: loads the built plugin with the
// SDK's harness, as featurelab would.
#include "../src/margin_stats_probe.hpp"

#include <featurelab/testing.hpp>

#include <cmath>
#include <cstdio>

namespace {

// f(x) = x_0: margins are ±x_0.
class FirstCoordinate : public featurelab::Model {
 public:
  FirstCoordinate() { allocate_parameters(); }
  featurelab::Index outputs() const override { return 1; }
  void init(featurelab::Rng&) override {}
  void forward(featurelab::ConstMatRef X, featurelab::MatRef out) override { out = X.col(0); }
  void backward(featurelab::ConstMatRef, featurelab::ConstMatRef, featurelab::VecRef) override {}
};

int failures = 0;
void expect_near(const char* what, double got, double want) {
  if (std::abs(got - want) > 1e-6) {
    std::printf("FAIL %s: got %g, want %g\n", what, got, want);
    ++failures;
  }
}

}  // namespace

int main() {
  using namespace featurelab;
  testing::Harness harness(MARGINS_PLUGIN);
  auto probe = harness.make<Probe>("margin-stats", {{"threshold", 0.5}});
  Dataset data;
  data.X = Mat(4, 2);
  data.X << 1, 0, -2, 0, 0.25, 0, 3, 0;
  data.y = IVec(4);
  data.y << 1, 0, 1, 0;  // signed labels +1, -1, +1, -1 -> margins 1, 2, 0.25, -3
  data.classes = 2;
  FirstCoordinate model;
  FeatureSet features;
  std::vector<NamedAttack> attacks;
  struct NoLoss : OutputLoss {
    Scalar value_and_gradient(ConstMatRef, const Batch&, MatRef) const override { return 0; }
  } loss;
  Measurements out;
  probe->measure(ProbeInput{model, loss, data, data, features, attacks, 0}, out);
  for (const auto& [name, value] : out.scalars()) {
    if (name == "train.min") expect_near("train.min", value, -3.0);
    if (name == "train.mean") expect_near("train.mean", value, 0.0625);
    if (name == "train.below") expect_near("train.below", value, 0.5);
  }
  if (out.scalars().size() != 6) {
    std::printf("FAIL: expected 6 scalars, got %zu\n", out.scalars().size());
    ++failures;
  }
  probe.reset();
  std::printf("%s\n", failures == 0 ? "margin-stats: all checks passed" : "margin-stats: FAILED");
  return failures == 0 ? 0 : 1;
}
