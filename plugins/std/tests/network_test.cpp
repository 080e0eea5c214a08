// The `network` model: composed layers against the hand-written models on the same parameters (outputs,
// gradients and input gradients within 1e-5 relative in float), gradients against finite differences,
// hook points read from the forward pass, and the errors of a network that does not fit its data.
#include "std_harness.hpp"

#include <featurelab/gradient_check.hpp>
#include <featurelab/loss.hpp>
#include <featurelab/testing.hpp>

#include <catch2/catch.hpp>

#include <string>

using namespace featurelab;
using featurelab::testing::layer;
using featurelab::testing::layers;
using std_test::harness;

namespace {

Mat random_matrix(Index rows, Index cols, std::uint64_t seed) {
  Mat m(rows, cols);
  Rng rng(seed);
  rng.fill_normal(m);
  return m;
}

double relative_difference(const Mat& a, const Mat& b) {
  return static_cast<double>((a - b).norm()) / std::max(1e-30, static_cast<double>(b.norm()));
}

// Copies every block of `from` into the block of the same name in `to` (the composed network names its
// blocks as the hand-written model does), and checks both have the same blocks.
void copy_blocks(const Model& from, Model& to) {
  REQUIRE(from.blocks().size() == to.blocks().size());
  for (const auto& b : from.blocks()) {
    INFO("block " << b.name);
    const ParamBlock* into = to.find_block(b.name);
    REQUIRE(into != nullptr);
    REQUIRE(into->rows == b.rows);
    REQUIRE(into->cols == b.cols);
    REQUIRE(into->trainable == b.trainable);
    to.block(b.name) = from.block(b.name);
  }
}

// The same outputs, parameter gradient (by block name) and input gradient.
void require_same_model(Model& hand, Model& composed, const Mat& X, double tolerance) {
  Mat out_hand(X.rows(), hand.outputs()), out_composed(X.rows(), composed.outputs());
  REQUIRE(hand.outputs() == composed.outputs());
  hand.forward(X, out_hand);
  composed.forward(X, out_composed);
  CHECK(relative_difference(out_composed, out_hand) <= tolerance);
  const Mat dout = random_matrix(X.rows(), hand.outputs(), 11);
  Vec g_hand(hand.trainable_size()), g_composed(composed.trainable_size());
  REQUIRE(g_hand.size() == g_composed.size());
  hand.backward(X, dout, g_hand);
  composed.backward(X, dout, g_composed);
  for (const auto& b : hand.blocks()) {
    if (!b.trainable) continue;
    const ParamBlock* c = composed.find_block(b.name);
    INFO("gradient of block " << b.name);
    CHECK(relative_difference(g_composed.segment(c->offset, c->size()), g_hand.segment(b.offset, b.size())) <=
          tolerance);
  }
  Mat dx_hand(X.rows(), X.cols()), dx_composed(X.rows(), X.cols());
  hand.input_gradient(X, dout, dx_hand);
  composed.input_gradient(X, dout, dx_composed);
  CHECK(relative_difference(dx_composed, dx_hand) <= tolerance);
}

}  // namespace

TEST_CASE("network: Figure 1's two-layer net composed of layers equals std two-layer") {
  const DataSpec spec = testing::spec(2, 2);
  auto hand = harness().make<Model>("two-layer", {{"width", std::int64_t(500)}}, spec);
  auto composed = harness().make<Model>(
      "network",
      {{"layer", layers({layer("linear", {{"out", std::int64_t(500)}, {"bias", false}}),
                         layer("relu"),
                         layer("linear", {{"out", std::int64_t(1)}, {"bias", false}, {"init", std::string("balanced")},
                                          {"trainable", false}})})}},
      spec);
  Rng rng(5);
  hand->init(rng);
  // The hand-written model's names, by the composed network's own: 0.W is W, 2.W is a.
  REQUIRE(composed->find_block("0.W"));
  REQUIRE(composed->find_block("2.W"));
  composed->block("0.W") = hand->block("W");
  composed->block("2.W") = hand->block("a");
  const Mat X = random_matrix(64, 2, 3);
  // Blocks of the same names, for the generic check:
  auto renamed = harness().make<Model>(
      "network",
      {{"layer", layers({[] {
                           auto l = layer("linear", {{"out", std::int64_t(500)}, {"bias", false}});
                           l.block_names = {"W"};
                           return l;
                         }(),
                         layer("relu"), [] {
                           auto l = layer("linear", {{"out", std::int64_t(1)}, {"bias", false},
                                                     {"init", std::string("balanced")}, {"trainable", false}});
                           l.block_names = {"a"};
                           return l;
                         }()})}},
      spec);
  copy_blocks(*hand, *renamed);
  require_same_model(*hand, *renamed, X, 1e-5);
  // The balanced readout is the hand-written one's init, to the bit.
  auto fresh = harness().make<Model>("two-layer", {{"width", std::int64_t(500)}}, spec);
  Rng any(1);
  fresh->init(any);
  renamed->init(any);
  CHECK(renamed->block("a") == fresh->block("a"));
}

TEST_CASE("network: gradients against finite differences, at and away from init") {
  const DataSpec spec = testing::spec(5, 3);
  auto model = harness().make<Model>(
      "network",
      {{"layer", layers({layer("linear", {{"out", std::int64_t(7)}}), layer("tanh"),
                         layer("scale", {{"factor", 2.0}, {"divide_by", std::string("sqrt-width")}}),
                         layer("linear", {{"out", std::int64_t(6)}, {"init", std::string("he")}}),
                         layer("smoothed-relu", {{"smooth_alpha", 3.0}, {"smooth_rho", 1.0}}), layer("linear")})}},
      spec);
  REQUIRE(model->outputs() == 3);
  auto loss = harness().make<Loss>("cross-entropy", {}, spec);
  Rng rng(2);
  model->init(rng);
  Dataset data;
  data.X = random_matrix(12, 5, 4);
  data.y.resize(12);
  for (Index i = 0; i < 12; ++i) data.y(i) = static_cast<std::int32_t>(i % 3);
  data.classes = 3;
  const Batch batch = Batch::of(data);
  const auto at_init = check_gradient(*model, *loss, batch);
  INFO(at_init.report);
  CHECK(at_init.ok);
  model->parameters() += 0.3 * Vec(random_matrix(model->trainable_size(), 1, 9).col(0));
  const auto moved = check_gradient(*model, *loss, batch);
  INFO(moved.report);
  CHECK(moved.ok);
  const auto input = check_input_gradient(*model, batch);
  INFO(input.report);
  CHECK(input.ok);
}

TEST_CASE("network: every layer's output is a hook point, read from the forward pass") {
  const DataSpec spec = testing::spec(4, 2);
  auto model = harness().make<Model>(
      "network", {{"layer", layers({layer("linear", {{"out", std::int64_t(8)}}, "hidden"), layer("relu"), layer("linear")})}},
      spec);
  Rng rng(3);
  model->init(rng);
  const auto hooks = model->hook_points();
  REQUIRE(hooks.size() == 3);
  CHECK(hooks[0].name == "hidden");
  CHECK(hooks[1].name == "1");
  CHECK(model->find_block("hidden.W"));
  CHECK(model->find_block("2.b"));
  const Mat X = random_matrix(10, 4, 1);
  Mat hidden, post, out(10, 1);
  model->hook("hidden", X, hidden);
  model->hook("1", X, post);
  CHECK(post == hidden.cwiseMax(Scalar(0)));
  const Mat expected = X * model->block("hidden.W").transpose();
  CHECK(relative_difference(hidden.rowwise() - model->block("hidden.b").row(0), expected) < 1e-6);
  // A hook between a step's forward and backward leaves the step alone.
  const Mat dout = random_matrix(10, 1, 2);
  Vec before(model->trainable_size()), after(model->trainable_size());
  model->forward(X, out);
  model->backward(X, dout, before);
  model->forward(X, out);
  model->hook("hidden", random_matrix(3, 4, 8), hidden);
  model->backward(X, dout, after);
  CHECK(before == after);
  CHECK_THROWS_WITH(model->hook("nope", X, hidden), Catch::Contains("hidden, 1, 2"));
}

TEST_CASE("network: a layer that does not fit its input is refused naming it") {
  const DataSpec spec = testing::spec(4, 3);
  CHECK_THROWS_WITH(
      harness().make<Model>("network",
                            {{"layer", layers({layer("linear", {{"out", std::int64_t(3)}, {"init", std::string("balanced")}})})}},
                            spec),
      Catch::Contains("model.layer.0") && Catch::Contains("balanced"));
  CHECK_THROWS_WITH(
      harness().make<Model>("network",
                            {{"layer", layers({layer("linear", {{"out", std::int64_t(10)}}),
                                               layer("linear", {{"out", std::int64_t(3)}, {"init", std::string("per-class")}})})}},
                            spec),
      Catch::Contains("model.layer.1") && Catch::Contains("model.layer.0"));
}
