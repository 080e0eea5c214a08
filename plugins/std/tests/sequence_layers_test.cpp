// The sequence layers (embedding, layer-norm, attention, last-token) and the gelu and softplus activations:
// gradients and input gradients against finite differences in networks that use them (attention causal or not,
// with rotary positions or none, 2 heads), their values where known, the same bits on any number of threads, and
// the errors of a layer that does not fit its input. fourier-icl's transformer_composition_test composes its
// transformer from them.
#include "std_harness.hpp"

#include <featurelab/activation.hpp>
#include <featurelab/gradient_check.hpp>
#include <featurelab/loss.hpp>
#include <featurelab/testing.hpp>
#include <featurelab/threads.hpp>

#include <catch2/catch.hpp>

#include <cmath>
#include <string>

using namespace featurelab;
using featurelab::testing::layer;
using featurelab::testing::layers;
using std_test::harness;

namespace {

Mat gaussian_matrix(Index rows, Index cols, std::uint64_t seed) {
  Mat m(rows, cols);
  Rng rng(seed);
  rng.fill_normal(m);
  return m;
}

// Data of n samples, each a sequence of T tokens of width d, in `classes` classes.
DataSpec sequence_spec(Index T, Index d, int classes) {
  DataSpec s;
  s.dim = T * d;
  s.classes = classes;
  s.shape.dims = {T, d};
  return s;
}

Dataset labelled(Mat X, int classes) {
  Dataset data;
  data.X = std::move(X);
  data.y.resize(data.X.rows());
  for (Index i = 0; i < data.X.rows(); ++i) data.y(i) = static_cast<std::int32_t>(i % classes);
  data.classes = classes;
  return data;
}

// n rows of T token ids in [0, vocab), as floats.
Mat token_ids(Index n, Index T, Index vocab, std::uint64_t seed) {
  Mat X(n, T);
  Rng rng(seed);
  for (Index i = 0; i < n; ++i) {
    for (Index t = 0; t < T; ++t) X(i, t) = static_cast<Scalar>(rng.integer(0, vocab - 1));
  }
  return X;
}

GradientCheckOptions thorough() {
  GradientCheckOptions options;
  options.directions = 16;
  options.coordinates = 48;
  return options;
}

// The parameter gradient at init and away from it, and (for real-valued inputs) the input gradient.
void check_network(Model& model, const Dataset& data, bool input_gradient) {
  REQUIRE(model.outputs() == data.classes);  // cross-entropy's one output per class
  auto loss = harness().make<Loss>("cross-entropy", {}, testing::spec(data.X.cols(), data.classes));
  const Batch batch = Batch::of(data);
  const auto at_init = check_gradient(model, *loss, batch, thorough());
  INFO("at init: " << at_init.report);
  CHECK(at_init.ok);
  model.parameters() += Scalar(0.3) * Vec(gaussian_matrix(model.trainable_size(), 1, 9).col(0));
  const auto moved = check_gradient(model, *loss, batch, thorough());
  INFO("moved: " << moved.report);
  CHECK(moved.ok);
  if (input_gradient) {
    const auto input = check_input_gradient(model, batch, thorough());
    INFO("input: " << input.report);
    CHECK(input.ok);
  }
}

ComponentSpec residual(std::vector<ComponentSpec> body, const std::string& path) {
  return layer("residual", {{"layers", layers(std::move(body), path + ".layers")}});
}

}  // namespace

TEST_CASE("sequence layers: attention (causal or not, rotary or no positions, 2 heads), layer-norm and last-token "
          "against finite differences") {
  const DataSpec spec = sequence_spec(5, 4, 3);
  const Dataset data = labelled(gaussian_matrix(7, 20, 4), 3);
  for (const bool causal : {true, false}) {
    for (const std::string positions : {"none", "rope"}) {
      INFO((causal ? "causal, " : "not causal, ") << positions);
      auto model = harness().make<Model>(
          "network",
          {{"layer", layers({layer("linear", {{"out", std::int64_t(8)}}),
                             layer("attention", {{"heads", std::int64_t(2)}, {"causal", causal}, {"positions", positions}}),
                             layer("layer-norm"), layer("last-token"), layer("linear")})}},
          spec);
      REQUIRE(model->outputs() == 3);
      REQUIRE(model->find_block("1.wq")->rows == 8);
      REQUIRE(model->find_block("1.wq")->cols == 8);
      REQUIRE(model->find_block("1.bo")->cols == 8);
      Rng rng(2);
      model->init(rng);
      check_network(*model, data, true);
    }
  }
}

TEST_CASE("sequence layers: attention without biases, a head width given, last-token at a position — and "
          "layer-norm on flat rows") {
  const DataSpec spec = sequence_spec(4, 6, 3);
  const Dataset data = labelled(gaussian_matrix(6, 24, 5), 3);
  auto model = harness().make<Model>(
      "network",
      {{"layer", layers({layer("attention", {{"heads", std::int64_t(2)}, {"head_width", std::int64_t(3)}, {"bias", false}}),
                         layer("last-token", {{"position", std::int64_t(1)}}), layer("layer-norm"), layer("linear")})}},
      spec);
  CHECK(model->find_block("0.bq") == nullptr);
  CHECK(model->blocks().size() == 4 + 2 + 2);  // wq wk wv wo, g b, W b
  Rng rng(3);
  model->init(rng);
  check_network(*model, data, true);
}

TEST_CASE("sequence layers: embedding's parameter gradient in a pre-norm transformer block, learned or rotary "
          "positions — token ids have no input gradient") {
  const Index T = 5, vocab = 7;
  const DataSpec spec = testing::spec(T, 3);
  const Dataset data = labelled(token_ids(9, T, vocab, 6), 3);
  for (const std::string positions : {"learned", "rope"}) {
    INFO(positions);
    const bool rope = positions == "rope";
    auto model = harness().make<Model>(
        "network",
        {{"layer",
          layers({layer("embedding", {{"vocab", std::int64_t(vocab)}, {"width", std::int64_t(8)},
                                      {"scale", std::string("sqrt-width")},
                                      {"positions", std::string(rope ? "none" : "learned")}}),
                  residual({layer("layer-norm"),
                            layer("attention", {{"heads", std::int64_t(2)}, {"positions", std::string(rope ? "rope" : "none")}})},
                           "model.layer.1"),
                  residual({layer("layer-norm"), layer("linear", {{"out", std::int64_t(16)}}), layer("gelu"),
                            layer("linear", {{"out", std::int64_t(8)}})},
                           "model.layer.2"),
                  layer("layer-norm"), layer("last-token"), layer("linear")})}},
        spec);
    REQUIRE(model->find_block("0.E")->rows == vocab);
    CHECK((model->find_block("0.P") != nullptr) == !rope);
    Rng rng(4);
    model->init(rng);
    check_network(*model, data, false);
    // The ids are data: the input gradient is zero.
    Mat out(data.X.rows(), 3), dX(data.X.rows(), T);
    dX.setOnes();
    model->forward(data.X, out);
    model->input_gradient(data.X, gaussian_matrix(data.X.rows(), 3, 1), dX);
    CHECK(dX.isZero(0));
  }
}

TEST_CASE("sequence layers: embedding looks up c·E[token] + P_t and scatter-adds its gradient — ids outside the "
          "vocabulary refused") {
  const DataSpec spec = testing::spec(3, 2);
  auto model = harness().make<Model>(
      "network",
      {{"layer", layers({layer("embedding", {{"vocab", std::int64_t(4)}, {"width", std::int64_t(2)},
                                             {"scale", std::string("sqrt-width")}}),
                         layer("last-token", {{"position", std::int64_t(0)}})})}},
      spec);
  Rng rng(1);
  model->init(rng);
  Mat X(2, 3);
  X << 3, 0, 3, 1, 1, 2;
  Mat out(2, 2);
  model->forward(X, out);
  const Scalar c = std::sqrt(Scalar(2));
  const Mat E = model->block("0.E"), P = model->block("0.P");
  CHECK((out.row(0) - (c * E.row(3) + P.row(0))).norm() < 1e-6);
  CHECK((out.row(1) - (c * E.row(1) + P.row(0))).norm() < 1e-6);
  // last-token at position 0 passes d(out) to token 0 only: ∇E[3] = c·dout_0, ∇E[1] = c·dout_1, ∇P_0 = Σ dout.
  const Mat dout = gaussian_matrix(2, 2, 3);
  Vec grad(model->trainable_size());
  model->backward(X, dout, grad);
  const Index e = model->find_block("0.E")->offset, p = model->find_block("0.P")->offset;
  const ConstMatMap dE(grad.data() + e, 4, 2), dP(grad.data() + p, 3, 2);
  CHECK((dE.row(3) - c * dout.row(0)).norm() < 1e-6);
  CHECK((dE.row(1) - c * dout.row(1)).norm() < 1e-6);
  CHECK(dE.row(0).isZero(0));
  CHECK(dE.row(2).isZero(0));
  CHECK((dP.row(0) - dout.colwise().sum()).norm() < 1e-6);
  CHECK(dP.bottomRows(2).isZero(0));
  X(1, 2) = 4;
  CHECK_THROWS_WITH(model->forward(X, out), Catch::Contains("outside the vocabulary [0, 4)"));
  // vocab = "auto" reads the distribution's feature "vocab".
  FeatureSet features{{"vocab", Mat::Constant(1, 1, 9)}};
  auto automatic = harness().make<Model>(
      "network", {{"layer", layers({layer("embedding", {{"width", std::int64_t(2)}}), layer("last-token"), layer("linear")})}},
      spec, 1, &features);
  CHECK(automatic->find_block("0.E")->rows == 9);
  CHECK_THROWS_WITH(
      harness().make<Model>("network", {{"layer", layers({layer("embedding"), layer("last-token"), layer("linear")})}}, spec),
      Catch::Contains("vocab"));
}

TEST_CASE("sequence layers: layer-norm normalises each token, attention's causal mask hides later tokens") {
  const DataSpec spec = sequence_spec(4, 6, 2);
  auto norm = harness().make<Model>("network", {{"layer", layers({layer("layer-norm")})}}, spec);
  Rng rng(1);
  norm->init(rng);
  const Mat X = gaussian_matrix(3, 24, 2) * Scalar(3);
  Mat out(3, 24);
  norm->forward(X, out);
  const ConstMatMap tokens(out.data(), 12, 6);
  for (Index r = 0; r < 12; ++r) {
    CHECK(std::abs(tokens.row(r).mean()) < 1e-5);
    CHECK(std::abs((tokens.row(r).array().square().mean()) - 1) < 1e-3);  // ε = 1e-5 against a variance of ~9
  }
  auto causal = harness().make<Model>("network", {{"layer", layers({layer("attention", {{"heads", std::int64_t(2)}})})}}, spec);
  causal->init(rng);
  Mat changed = X, out_changed(3, 24);
  changed.rightCols(6).setConstant(5);  // the last token
  causal->forward(X, out);
  causal->forward(changed, out_changed);
  CHECK(out.leftCols(18) == out_changed.leftCols(18));
  CHECK(out.rightCols(6) != out_changed.rightCols(6));
}

TEST_CASE("activations gelu and softplus: values, and gradients through them as layers") {
  const DataSpec spec = testing::spec(5, 3);
  auto gelu = harness().make<ActivationFunction>("gelu", {});
  auto softplus = harness().make<ActivationFunction>("softplus", {});
  Mat Z(1, 5), H(1, 5), D(1, 5);
  Z << -60, -1, 0, 1, 60;
  gelu->apply(Z, H, D);
  CHECK(H(0, 0) == 0);
  CHECK(H(0, 2) == 0);
  CHECK(H(0, 3) == Approx(0.8413447460685429).epsilon(1e-6));  // Φ(1)
  CHECK(H(0, 1) == Approx(-0.15865525393145707).epsilon(1e-5));
  CHECK(D(0, 2) == Approx(0.5));
  CHECK(D(0, 3) == Approx(0.8413447460685429 + 0.24197072451914337).epsilon(1e-5));  // Φ(1) + ϕ(1)
  CHECK(H(0, 4) == 60);
  softplus->apply(Z, H, D);
  CHECK(H(0, 2) == Approx(std::log(2.0)));
  CHECK(H(0, 3) == Approx(std::log1p(std::exp(1.0))).epsilon(1e-6));
  CHECK(H(0, 4) == 60);       // no overflow
  CHECK(H(0, 0) > 0);         // e^−60, not 0
  CHECK(H(0, 0) == Approx(std::exp(-60.0)).epsilon(1e-5));
  CHECK(D(0, 2) == Approx(0.5));
  CHECK(D(0, 1) == Approx(1 / (1 + std::exp(1.0))).epsilon(1e-6));
  const Dataset data = labelled(gaussian_matrix(12, 5, 4), 3);
  auto model = harness().make<Model>(
      "network", {{"layer", layers({layer("linear", {{"out", std::int64_t(7)}}), layer("gelu"),
                                    layer("linear", {{"out", std::int64_t(6)}}), layer("softplus"), layer("linear")})}},
      spec);
  Rng rng(2);
  model->init(rng);
  check_network(*model, data, true);
}

// 61 sequences of 6 tokens at width 64 and an MLP of 128: 366 token rows, so the linear layers' products split
// into blocks of rows (and of inputs, for a weight's gradient) that the threads share.
TEST_CASE("sequence layers: the same bits on 1, 2 and 3 threads") {
  const Index T = 6, vocab = 11;
  const DataSpec spec = testing::spec(T, 4);
  const Dataset data = labelled(token_ids(61, T, vocab, 2), 4);
  auto model = harness().make<Model>(
      "network",
      {{"layer", layers({layer("embedding", {{"vocab", std::int64_t(vocab)}, {"width", std::int64_t(64)}, {"positions", std::string("none")}}),
                         residual({layer("layer-norm"), layer("attention", {{"heads", std::int64_t(2)}, {"positions", std::string("rope")}})},
                                  "model.layer.1"),
                         residual({layer("layer-norm"), layer("linear", {{"out", std::int64_t(128)}}), layer("softplus"),
                                   layer("linear", {{"out", std::int64_t(64)}})},
                                  "model.layer.2"),
                         layer("layer-norm"), layer("last-token"), layer("linear")})}},
      spec);
  Rng rng(5);
  model->init(rng);
  Mat out1;
  Vec grad1;
  for (const int threads : {1, 2, 3}) {
    set_job_threads(threads);
    Mat out(61, 4);
    model->forward(data.X, out);
    const Mat dout = (out.array() * Scalar(0.5)).sin().matrix();
    Vec grad(model->trainable_size());
    model->backward(data.X, dout, grad);
    if (threads == 1) {
      out1 = out;
      grad1 = grad;
    } else {
      CHECK(out == out1);
      CHECK(grad == grad1);
    }
  }
  set_job_threads(1);
}

TEST_CASE("sequence layers: a layer that does not fit its input is refused, saying why") {
  const DataSpec seq = sequence_spec(4, 6, 2);
  const auto build = [](const std::vector<ComponentSpec>& list, const DataSpec& spec) {
    return harness().make<Model>("network", {{"layer", layers(list)}}, spec);
  };
  CHECK_THROWS_WITH(build({layer("attention", {{"heads", std::int64_t(2)}, {"head_width", std::int64_t(4)}}), layer("last-token"),
                           layer("linear")},
                          seq),
                    Catch::Contains("model.layer.0") && Catch::Contains("d = 6") &&
                        Catch::Contains("heads × head_width = 2 × 4 = 8"));
  CHECK_THROWS_WITH(build({layer("attention", {{"heads", std::int64_t(4)}}), layer("last-token"), layer("linear")}, seq),
                    Catch::Contains("does not split into heads = 4"));
  CHECK_THROWS_WITH(build({layer("attention", {{"heads", std::int64_t(2)}, {"positions", std::string("rope")}}), layer("last-token"),
                           layer("linear")},
                          seq),
                    Catch::Contains("head_width = 3 is odd"));
  const DataSpec flat = testing::spec(6, 2);
  CHECK_THROWS_WITH(build({layer("attention"), layer("linear")}, flat),
                    Catch::Contains("model.layer.0") && Catch::Contains("attention runs over a sequence") &&
                        Catch::Contains("6 features (flat)"));
  CHECK_THROWS_WITH(build({layer("last-token"), layer("linear")}, flat), Catch::Contains("last-token reads one token of a sequence"));
  CHECK_THROWS_WITH(build({layer("attention", {{"heads", std::int64_t(2)}}), layer("last-token", {{"position", std::int64_t(4)}}),
                           layer("linear")},
                          seq),
                    Catch::Contains("outside the sequence of 4 tokens"));
  CHECK_THROWS_WITH(build({layer("embedding", {{"vocab", std::int64_t(5)}}), layer("linear")}, seq),
                    Catch::Contains("embedding reads a flat row of token ids"));
}
