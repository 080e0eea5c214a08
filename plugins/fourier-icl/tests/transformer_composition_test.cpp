// Shi 2024 ch. 4's transformer composed of std's layers (a `network`): embedding → [residual(layer-norm, attention)
// → residual(layer-norm, linear, gelu, linear)] × L → layer-norm → last-token → linear equals this pack's
// hand-written `transformer` on the same parameters, with learned positions and with rotary ones: outputs and
// parameter gradients within 1e-5 relative in float (the inputs are token ids: no input gradient to compare).
//
// The composed network names its blocks as the transformer does (each layer's blocks = [...]); the attention
// layer lays out wq … bo as the transformer, so they copy in as they are, while std's linear stores W as out × in
// (PyTorch's) where the transformer keeps w1 (D × mlp), w2 (mlp × D) and out (D × C) as in × out: those three
// copy in transposed. The transformer's frozen attention_shape = [H, a] (read by its probes) has no counterpart.
#include <featurelab/distribution.hpp>
#include <featurelab/model.hpp>
#include <featurelab/testing.hpp>

#include <catch2/catch.hpp>

#include <chrono>
#include <cstdio>
#include <map>
#include <memory>
#include <string>
#include <vector>

using namespace featurelab;
using featurelab::testing::layer;
using featurelab::testing::layers;

namespace {

testing::Harness& fourier_icl_harness() { return testing::pack(FOURIER_ICL_PLUGIN); }
testing::Harness& std_harness() { return testing::pack(FEATURELAB_STD_PLUGIN); }

struct Sizes {
  std::int64_t layers, heads, width, head_width, mlp;
  std::string positions;  // "learned" or "rope"
};

std::map<std::string, Value> transformer_params(const Sizes& s) {
  return {{"layers", s.layers}, {"heads", s.heads},         {"width", s.width},
          {"head_width", s.head_width}, {"mlp", s.mlp}, {"positions", s.positions}};
}

ComponentSpec named(ComponentSpec spec, std::vector<std::string> blocks) {
  spec.block_names = std::move(blocks);
  return spec;
}

// The transformer's blocks of decoder block l: "l0.wq", ...
std::vector<std::string> blocks_of(std::int64_t l, std::vector<std::string> names) {
  for (std::string& n : names) n = "l" + std::to_string(l) + "." + n;
  return names;
}

// The transformer as layers, its blocks named as the transformer's.
std::map<std::string, Value> network_params(const Sizes& s, int classes) {
  const bool rope = s.positions == "rope";
  std::vector<ComponentSpec> list;
  list.push_back(named(layer("embedding", {{"width", s.width}, {"scale", std::string("sqrt-width")},
                                           {"positions", std::string(rope ? "none" : "learned")}}),
                       rope ? std::vector<std::string>{"embed"} : std::vector<std::string>{"embed", "pos"}));
  for (std::int64_t l = 0; l < s.layers; ++l) {
    const std::string at = "model.layer." + std::to_string(list.size());
    list.push_back(layer(
        "residual",
        {{"layers", layers({named(layer("layer-norm"), blocks_of(l, {"ln1_g", "ln1_b"})),
                            named(layer("attention", {{"heads", s.heads},
                                                      {"head_width", s.head_width},
                                                      {"positions", std::string(rope ? "rope" : "none")}}),
                                  blocks_of(l, {"wq", "wk", "wv", "bq", "bk", "bv", "wo", "bo"}))},
                           at + ".layers")}}));
    const std::string mlp_at = "model.layer." + std::to_string(list.size());
    list.push_back(layer(
        "residual", {{"layers", layers({named(layer("layer-norm"), blocks_of(l, {"ln2_g", "ln2_b"})),
                                        named(layer("linear", {{"out", s.mlp}}), blocks_of(l, {"w1", "b1"})), layer("gelu"),
                                        named(layer("linear", {{"out", s.width}}), blocks_of(l, {"w2", "b2"}))},
                                       mlp_at + ".layers")}}));
  }
  list.push_back(named(layer("layer-norm"), {"lnf_g", "lnf_b"}));
  list.push_back(layer("last-token"));
  list.push_back(named(layer("linear", {{"out", std::int64_t(classes)}}), {"out", "bout"}));
  return {{"layer", layers(std::move(list))}};
}

// std's linear keeps W as out × in, the transformer as in × out.
bool transposed(const std::string& name) {
  return name == "out" || (name.size() > 3 && (name.substr(name.size() - 3) == ".w1" || name.substr(name.size() - 3) == ".w2"));
}

struct Pair {
  std::shared_ptr<Model> hand, composed;
  DataSpec spec;
  Dataset data;
};

// modular-sum over Z_p with k operands as tokens (T = 2k, vocabulary p + 2), n samples; both models on the
// transformer's initial parameters.
Pair make_pair(const Sizes& sizes, int k, int p, Index n) {
  auto dist = fourier_icl_harness().make<Distribution>(
      "modular-sum", {{"k", std::int64_t(k)}, {"p", std::int64_t(p)}, {"encoding", std::string("tokens")}});
  Pair pair;
  pair.spec = dist->spec();
  const FeatureSet features = dist->features();
  Rng rng(7);
  dist->sample(n, Split::Train, rng, pair.data);
  pair.hand = fourier_icl_harness().make<Model>("transformer", transformer_params(sizes), pair.spec, 1, &features);
  pair.composed = std_harness().make<Model>("network", network_params(sizes, pair.spec.classes), pair.spec, 1, &features);
  pair.hand->init(rng);
  pair.composed->init(rng);
  for (const ParamBlock& b : pair.hand->blocks()) {
    if (!b.trainable) continue;  // attention_shape
    INFO("block " << b.name);
    const ParamBlock* into = pair.composed->find_block(b.name);
    REQUIRE(into != nullptr);
    REQUIRE(into->trainable);
    if (transposed(b.name)) {
      REQUIRE((into->rows == b.cols && into->cols == b.rows));
      pair.composed->block(b.name) = pair.hand->block(b.name).transpose();
    } else {
      REQUIRE((into->rows == b.rows && into->cols == b.cols));
      pair.composed->block(b.name) = pair.hand->block(b.name);
    }
  }
  // Every trainable block of the network is one of the transformer's.
  REQUIRE(pair.composed->trainable_size() == pair.hand->trainable_size());
  return pair;
}

double relative_difference(const Mat& a, const Mat& b) {
  return static_cast<double>((a - b).norm()) / std::max(1e-30, static_cast<double>(b.norm()));
}

}  // namespace

TEST_CASE("transformer composed of std layers equals the hand-written transformer (learned and rotary positions)") {
  for (const std::string positions : {"learned", "rope"}) {
    INFO(positions);
    // The contract's small transformer with two blocks; 37 samples: the transformer runs two shards.
    const Sizes sizes{2, 2, 16, 8, 32, positions};
    Pair pair = make_pair(sizes, 2, 11, 37);
    Model& hand = *pair.hand;
    Model& composed = *pair.composed;
    const Mat& X = pair.data.X;
    REQUIRE(hand.outputs() == composed.outputs());
    Mat out_hand(X.rows(), hand.outputs()), out_composed(X.rows(), composed.outputs());
    hand.forward(X, out_hand);
    composed.forward(X, out_composed);
    CHECK(relative_difference(out_composed, out_hand) <= 1e-5);
    CHECK(out_hand.cwiseAbs().maxCoeff() > 0.1);  // not a trivial agreement

    Mat dout(X.rows(), hand.outputs());
    Rng rng(3);
    rng.fill_normal(dout);
    Vec g_hand(hand.trainable_size()), g_composed(composed.trainable_size());
    hand.backward(X, dout, g_hand);
    composed.backward(X, dout, g_composed);
    Vec g_as_hand(g_hand.size());  // the composed gradient in the transformer's layout: the whole compared too
    for (const ParamBlock& b : hand.blocks()) {
      if (!b.trainable) continue;
      const ParamBlock& c = *composed.find_block(b.name);
      const Mat h = ConstMatMap(g_hand.data() + b.offset, b.rows, b.cols);
      Mat g = ConstMatMap(g_composed.data() + c.offset, c.rows, c.cols);
      if (transposed(b.name)) g.transposeInPlace();
      MatMap(g_as_hand.data() + b.offset, b.rows, b.cols) = g;
      INFO("gradient of block " << b.name << ": " << g.norm() << " against " << h.norm());
      // ∇b_k is 0 in exact arithmetic without rotary positions (a shift shared by every key of a query leaves its
      // softmax unchanged): both are rounding noise, measured against the whole gradient instead.
      const bool zero_in_exact_arithmetic = positions == "learned" && b.name.size() > 3 && b.name.substr(b.name.size() - 3) == ".bk";
      if (zero_in_exact_arithmetic) {
        CHECK(static_cast<double>((g - h).norm()) <= 1e-5 * static_cast<double>(g_hand.norm()));
      } else {
        CHECK(relative_difference(g, h) <= 1e-5);
      }
    }
    CHECK(relative_difference(g_as_hand, g_hand) <= 1e-5);
  }
}

// One training step's forward and backward, the hand-written transformer against the composed one: the reduced
// grokking pipeline's model (tests/pipelines/modular-transformer-reduced.toml: k = 3, p = 11, 2 layers, 4 heads of
// 16, width 64, MLP 128, batch 64) and the transformer's defaults (1 layer, 4 heads of 32, width 128, MLP 512). Run
// by name: fourier-icl-tests "[.timing]".
TEST_CASE("transformer composed of std layers: time of a training step against the hand-written one", "[.timing]") {
  struct Setting {
    const char* what;
    Sizes sizes;
    int k, p;
    Index batch;
  };
  for (const Setting& setting : {Setting{"reduced pipeline", {2, 4, 64, 16, 128, "learned"}, 3, 11, 64},
                                 Setting{"defaults", {1, 4, 128, 32, 512, "learned"}, 3, 11, 64}}) {
    Pair pair = make_pair(setting.sizes, setting.k, setting.p, setting.batch);
    const Mat& X = pair.data.X;
    Mat out(X.rows(), pair.hand->outputs()), dout(X.rows(), pair.hand->outputs());
    Rng rng(1);
    rng.fill_normal(dout);
    Vec grad(pair.hand->trainable_size());
    for (Model* model : {pair.hand.get(), pair.composed.get()}) {
      const auto step = [&] {
        model->forward(X, out);
        model->backward(X, dout, grad);
      };
      for (int i = 0; i < 20; ++i) step();  // warm: every buffer sized
      const int steps = 300;
      const auto start = std::chrono::steady_clock::now();
      for (int i = 0; i < steps; ++i) step();
      const double us = std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - start).count() / steps;
      std::printf("%-16s %-12s %9.1f us per step (forward + backward, batch %ld)\n", setting.what,
                  model == pair.hand.get() ? "transformer" : "network", us, static_cast<long>(setting.batch));
    }
  }
}
