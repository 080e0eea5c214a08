// The `network` model: composed layers against the hand-written models on the same parameters (outputs,
// gradients and input gradients within 1e-5 relative in float), gradients against finite differences,
// hook points read from the forward pass, and the errors of a network that does not fit its data.
#include "std_harness.hpp"

#include <featurelab/gradient_check.hpp>
#include <featurelab/loss.hpp>
#include <featurelab/model_comparison.hpp>
#include <featurelab/network.hpp>
#include <featurelab/testing.hpp>

#include <catch2/catch.hpp>

#include <map>
#include <string>
#include <vector>

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

ComponentSpec named(ComponentSpec spec, std::vector<std::string> blocks) {
  spec.block_names = std::move(blocks);
  return spec;
}

// The same outputs, parameter gradient (by block name) and input gradient, after the composition takes the
// hand-written model's blocks (testing::compare_models).
void require_same_model(Model& hand, Model& composed, const Mat& X, double tolerance) {
  CHECK(testing::compare_models(hand, composed, X).failures(tolerance) == "");
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
      {{"layer", layers({named(layer("linear", {{"out", std::int64_t(500)}, {"bias", false}}), {"W"}), layer("relu"),
                         named(layer("linear", {{"out", std::int64_t(1)}, {"bias", false},
                                                {"init", std::string("balanced")}, {"trainable", false}}),
                               {"a"})})}},
      spec);
  require_same_model(*hand, *renamed, X, 1e-5);
  // The balanced readout is the hand-written one's init, to the bit.
  auto fresh = harness().make<Model>("two-layer", {{"width", std::int64_t(500)}}, spec);
  Rng any(1);
  fresh->init(any);
  renamed->init(any);
  CHECK(renamed->block("a") == fresh->block("a"));
}

// std two-layer's other readouts (fixed ±s i.i.d., fixed per-class sums, trained), with and without the
// first-layer bias, and random-features (first layer fixed, readout trained) as the same three layers.
TEST_CASE("network: two-layer's readouts and random-features composed of layers equal the hand-written models") {
  struct Variant {
    const char* model;
    const char* second_layer;  // two-layer's; random-features has none
    const char* init;          // the readout linear's
    bool bias;
  };
  const Variant variants[] = {{"two-layer", "random-sign", "random-sign", false},
                              {"two-layer", "per-class", "per-class", true},
                              {"two-layer", "trainable", "fan-in", true},
                              {"random-features", "", "fan-in", true}};
  const DataSpec spec = testing::spec(6, 3);
  const Mat X = random_matrix(33, 6, 8);
  for (const Variant& v : variants) {
    INFO(v.model << " " << v.second_layer << (v.bias ? ", bias" : ""));
    const bool random_features = std::string(v.model) == "random-features";
    std::map<std::string, Value> params{{"width", std::int64_t(12)}, {"bias", v.bias}, {"activation", std::string("tanh")}};
    if (random_features) {
      params["second_scale"] = 0.3;
    } else {
      params["second_layer"] = std::string(v.second_layer);
    }
    auto hand = harness().make<Model>(v.model, params, spec);
    const bool first_trains = !random_features;
    const bool readout_trains = random_features || std::string(v.second_layer) == "trainable";
    auto composed = harness().make<Model>(
        "network",
        {{"layer",
          layers({named(layer("linear", {{"out", std::int64_t(12)}, {"bias", v.bias}, {"trainable", first_trains}}),
                        v.bias ? std::vector<std::string>{"W", "b"} : std::vector<std::string>{"W"}),
                  layer("tanh"),
                  named(layer("linear", {{"out", std::int64_t(3)}, {"bias", false}, {"init", std::string(v.init)},
                                         {"trainable", readout_trains}}),
                        {"a"})})}},
        spec);
    Rng rng(4);
    hand->init(rng);
    if (v.bias) hand->block("b").setRandom();
    require_same_model(*hand, *composed, X, 1e-5);
  }
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

// A batch past the tape budget runs in chunks of rows: outputs, the gradient (each chunk's forward pass
// recomputed, the chunks' gradients added in order), the input gradient, a hook and its backward pass equal
// those of the whole batch in one pass.
TEST_CASE("network: a batch past the tape budget runs in chunks and equals one pass") {
  const DataSpec spec = testing::spec(5, 3);
  const Value body = layers({layer("linear", {{"out", std::int64_t(9)}}), layer("tanh"),
                             layer("residual", {{"layers", layers({layer("layer-norm"), layer("linear", {{"out", std::int64_t(9)}}),
                                                                   layer("gelu")},
                                                                  "model.layer.2.layers")}}),
                             layer("linear")});
  auto whole = harness().make<Model>("network", {{"layer", body}}, spec);
  auto chunked = harness().make<Model>("network", {{"layer", body}}, spec);
  auto& network = dynamic_cast<Network&>(*chunked);
  REQUIRE(network.chunk_rows() > 1000);  // the default budget: small networks never chunk
  network.set_tape_budget(7 * 3 * 9 * 4 * static_cast<double>(sizeof(Scalar)));
  REQUIRE(network.chunk_rows() < 10);
  Rng rng(6);
  whole->init(rng);
  chunked->parameters() = whole->parameters();
  const Mat X = random_matrix(50, 5, 12);
  Mat out_whole(50, 3), out_chunked(50, 3);
  whole->forward(X, out_whole);
  chunked->forward(X, out_chunked);
  CHECK(relative_difference(out_chunked, out_whole) <= 1e-6);
  const Mat dout = random_matrix(50, 3, 13);
  Vec g_whole(whole->trainable_size()), g_chunked(chunked->trainable_size());
  whole->backward(X, dout, g_whole);
  chunked->backward(X, dout, g_chunked);
  CHECK(relative_difference(g_chunked, g_whole) <= 1e-5);
  Mat dx_whole(50, 5), dx_chunked(50, 5);
  whole->input_gradient(X, dout, dx_whole);
  chunked->input_gradient(X, dout, dx_chunked);
  CHECK(relative_difference(dx_chunked, dx_whole) <= 1e-5);
  Mat hook_whole, hook_chunked;
  whole->hook("2", X, hook_whole);
  chunked->hook("2", X, hook_chunked);
  REQUIRE(hook_chunked.rows() == 50);
  CHECK(relative_difference(hook_chunked, hook_whole) <= 1e-6);
  const Mat dhook = random_matrix(50, 9, 14);
  Vec h_whole = Vec::Zero(whole->trainable_size()), h_chunked = Vec::Zero(chunked->trainable_size());
  whole->hook_backward("2", X, dhook, h_whole);
  chunked->hook_backward("2", X, dhook, h_chunked);
  CHECK(relative_difference(h_chunked, h_whole) <= 1e-5);
  CHECK(h_whole.norm() > 0);
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
