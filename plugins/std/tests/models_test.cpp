// std models: gradients against finite differences for every model × loss, activation, bias and
// second-layer mode; input gradients; exact values of the activations and second layers.
#include <featurelab/activation.hpp>
#include <featurelab/capabilities.hpp>
#include <featurelab/gradient_check.hpp>
#include <featurelab/loss.hpp>
#include "std_harness.hpp"

#include <featurelab/testing.hpp>
#include <featurelab/threads.hpp>

#include <catch2/catch.hpp>

#include <cmath>
#include <limits>
#include <map>
#include <utility>
#include <string>
#include <vector>

using namespace featurelab;
using std_test::harness;
using std_test::check_same_bits_on_threads;
using std_test::Overrides;

namespace {

// A small batch with labels in [0, classes); inputs away from ReLU kinks are not guaranteed, so
// batches are small and the finite-difference step is small.
Dataset batch_data(Index n, Index dim, int classes, std::uint64_t seed, bool soft = false) {
  Dataset d;
  Rng rng(seed);
  d.X.resize(n, dim);
  rng.fill_normal(d.X);
  d.y.resize(n);
  for (Index i = 0; i < n; ++i) d.y(i) = static_cast<std::int32_t>(rng.integer(0, classes - 1));
  d.classes = classes;
  if (soft) {
    d.T.resize(n, classes);
    rng.fill_uniform(d.T, 0.1, 1.0);
    d.T.array().colwise() /= d.T.rowwise().sum().array();
  }
  return d;
}

// hook_backward(hook) adds d Σ(G ∘ hook(X))/dθ for a random G: every stride-th parameter against central
// differences of that sum.
void check_hook_backward(Model& model, const std::string& hook, const Mat& X, Index stride, Rng& rng) {
  Mat values;
  model.hook(hook, X, values);
  Mat G(values.rows(), values.cols());
  rng.fill_normal(G);
  Vec grad = Vec::Constant(model.trainable_size(), 1);  // it adds: start from ones
  model.hook_backward(hook, X, G, grad);
  const double h = std::is_same_v<Scalar, float> ? 2e-3 : 1e-6;
  for (Index p = 0; p < model.trainable_size(); p += stride) {
    const Scalar keep = model.parameters()(p);
    auto sum_at = [&](double value) {
      model.parameters()(p) = static_cast<Scalar>(value);
      model.hook(hook, X, values);
      return static_cast<double>(values.cwiseProduct(G).sum());
    };
    const double numeric = (sum_at(keep + h) - sum_at(keep - h)) / (2 * h);
    model.parameters()(p) = keep;
    INFO(hook << ", parameter " << p);
    CHECK(grad(p) - 1 == Approx(numeric).margin(std::is_same_v<Scalar, float> ? 2e-2 : 1e-5).epsilon(0.02));
  }
}

GradientCheckOptions options_for(const std::string& activation) {
  GradientCheckOptions o;
  // ReLU kinks: a small step keeps most pre-activations on one side.
  // tanh: the multiclass hinge kinks where its saturated outputs tie.
  if (activation == "relu" || activation == "leaky-relu" || activation == "tanh") o.step = std::is_same_v<Scalar, float> ? 2e-3 : 1e-6;
  return o;
}

void check_model_with_loss(const std::string& model_name, const Overrides& model_params, const std::string& loss_name,
                           int classes, bool soft = false) {
  const DataSpec s = testing::spec(5, classes);
  auto model = harness().make<Model>(model_name, model_params, s, 11);
  auto loss = harness().make<Loss>(loss_name, {}, s);
  Rng rng(3);
  model->init(rng);
  // A nonzero second layer everywhere, so every block's gradient is exercised.
  if (model->find_block("a") && model->find_block("a")->trainable) rng.fill_normal(model->block("a"), 0.5);
  if (model->find_block("b")) rng.fill_normal(model->block("b"), 0.3);
  const Dataset data = batch_data(6, 5, classes, 5, soft);
  std::string activation = "relu";
  if (auto it = model_params.find("activation"); it != model_params.end()) activation = std::get<std::string>(it->second);
  const auto result = check_gradient(*model, *loss, Batch::of(data), options_for(activation));
  INFO(model_name << " + " << loss_name << " (" << activation << "):\n" << result.report);
  CHECK(result.ok);
  const auto input = check_input_gradient(*model, Batch::of(data), options_for(activation));
  INFO("input gradient:\n" << input.report);
  CHECK(input.ok);
}

}  // namespace

TEST_CASE("two-layer gradients for every activation, bias and second layer") {
  // tanh is a pack's activation (kind "activation"), the others are built in.
  for (const std::string act : {"relu", "leaky-relu", "smoothed-relu", "poly", "identity", "tanh"}) {
    for (bool bias : {false, true}) {
      Overrides p{{"width", std::int64_t(6)}, {"activation", act}, {"bias", bias}, {"smooth_rho", 0.5}};
      check_model_with_loss("two-layer", p, "logistic", 2);
      p["second_layer"] = std::string("trainable");
      check_model_with_loss("two-layer", p, "squared", 2);
      p["second_layer"] = std::string("per-class");
      p["width"] = std::int64_t(6);
      check_model_with_loss("two-layer", p, "cross-entropy", 3);
      p["second_layer"] = std::string("random-sign");
      check_model_with_loss("two-layer", p, "hinge", 3);
    }
  }
}

TEST_CASE("linear and random-features gradients with every loss") {
  for (const std::string loss : {"logistic", "hinge", "squared"}) {
    check_model_with_loss("linear", {}, loss, 2);
    check_model_with_loss("random-features", {{"width", std::int64_t(8)}, {"second_scale", 0.3}}, loss, 2);
  }
  for (const std::string loss : {"cross-entropy", "hinge", "squared"}) {
    check_model_with_loss("linear", {}, loss, 4);
    check_model_with_loss("random-features", {{"width", std::int64_t(8)}, {"activation", std::string("smoothed-relu")}},
                          loss, 4);
  }
  check_model_with_loss("linear", {}, "cross-entropy", 3, true);     // soft targets (mixup)
  check_model_with_loss("linear", {{"outputs", std::int64_t(1)}}, "logistic", 2, false);
}

TEST_CASE("a pack's activation plugs into two-layer: tanh's values and slopes, and a clear refusal of an unknown one") {
  auto model = harness().make<Model>("two-layer", {{"width", std::int64_t(3)}, {"activation", std::string("tanh")},
                                                   {"second_layer", std::string("trainable")}}, testing::spec(2, 2), 1);
  Rng rng(2);
  model->init(rng);
  Mat pre, post;
  Mat X(2, 2);
  X << 0.3, -1.2, 2.0, 0.5;
  model->hook("hidden.pre", X, pre);
  model->hook("hidden.post", X, post);
  for (Index i = 0; i < pre.size(); ++i) CHECK(post(i) == Approx(std::tanh(double(pre(i)))).epsilon(1e-5));
  CHECK_THROWS_WITH(harness().make<Model>("two-layer", {{"activation", std::string("tahn")}}, testing::spec(2, 2), 1),
                    Catch::Contains("activation 'tahn' is not built in (relu, leaky-relu") &&
                        Catch::Contains("no activation 'tahn'"));
}

TEST_CASE("random-features trains only its second layer") {
  const DataSpec s = testing::spec(4, 2);
  auto model = harness().make<Model>("random-features", {{"width", std::int64_t(10)}}, s);
  Rng rng(1);
  model->init(rng);
  CHECK(model->trainable_size() == 10);  // a: 1×10
  CHECK_FALSE(model->find_block("W")->trainable);
  CHECK(model->block("a").isZero());
}

TEST_CASE("the balanced second layer is ±1/√m, half each, unit norm") {
  auto model = harness().make<Model>("two-layer", {{"width", std::int64_t(10)}}, testing::spec(3, 2));
  Rng rng(1);
  model->init(rng);
  const auto a = model->block("a");
  CHECK(model->outputs() == 1);
  CHECK(a(0, 0) == Approx(1 / std::sqrt(10.0)));
  CHECK(a(0, 9) == Approx(-1 / std::sqrt(10.0)));
  CHECK(a.sum() == Approx(0).margin(1e-6));
  CHECK(a.norm() == Approx(1));
  CHECK(model->trainable_size() == 30);  // only W
  CHECK_THROWS_WITH(harness().make<Model>("two-layer", {}, testing::spec(3, 4)), Catch::Contains("per-class"));
}

TEST_CASE("the per-class second layer routes each group of neurons to its class") {
  auto model = harness().make<Model>("two-layer", {{"width", std::int64_t(6)}, {"second_layer", std::string("per-class")}},
                                     testing::spec(3, 3));
  Rng rng(1);
  model->init(rng);
  const auto a = model->block("a");
  CHECK(a(0, 0) > 0);
  CHECK(a(0, 1) > 0);
  CHECK(a(0, 2) == 0);
  CHECK(a(2, 5) > 0);
  CHECK_THROWS_WITH(harness().make<Model>("two-layer", {{"width", std::int64_t(7)}, {"second_layer", std::string("per-class")}},
                                          testing::spec(3, 3)),
                    Catch::Contains("multiple of 3"));
}

TEST_CASE("the smoothed ReLU is C1 at rho with value rho/alpha") {
  for (double alpha : {2.0, 3.0, 8.0}) {
    auto model = harness().make<Model>(
        "two-layer", {{"width", std::int64_t(1)}, {"activation", std::string("smoothed-relu")}, {"smooth_alpha", alpha},
                      {"smooth_rho", 0.5}, {"second_layer", std::string("trainable")}, {"outputs", std::int64_t(1)}},
        testing::spec(1, 2));
    model->block("W")(0, 0) = 1;
    model->block("a")(0, 0) = 1;
    Mat x(4, 1), out(4, 1);
    x << -1, 0.25, 0.5, 2;
    model->forward(x, out);
    CHECK(out(0, 0) == 0);
    CHECK(out(1, 0) == Approx(std::pow(0.25, alpha) / (alpha * std::pow(0.5, alpha - 1))));
    CHECK(out(2, 0) == Approx(0.5 / alpha));
    CHECK(out(3, 0) == Approx(2 - (1 - 1 / alpha) * 0.5));
    Mat dX(4, 1);
    model->input_gradient(x, Mat::Ones(4, 1), dX);
    CHECK(dX(0, 0) == 0);
    CHECK(dX(2, 0) == Approx(1));
    CHECK(dX(3, 0) == Approx(1));
  }
}

// Only α = 8 and α = 4 have unrolled kernels (activation.hpp): every other integral α − 1 up to 16 takes the
// loop, which must make the same products in the same order, so a run gives the bits it gave when each
// exponent had its own unrolled kernel.
template <int... N>
void check_power_loop_bits(std::integer_sequence<int, N...>) {
  using Unrolled = Scalar (*)(Scalar);
  const Unrolled unrolled[] = {&activation_kernel::power_of<N>...};
  for (int n = 1; n < static_cast<int>(sizeof...(N)); ++n) {
    int top = 0;
    while ((n >> top) != 0) ++top;
    for (int i = 0; i <= 1000; ++i) {
      const Scalar r = Scalar(i) / Scalar(1000) + Scalar(i % 7) * std::numeric_limits<Scalar>::epsilon();
      if (activation_kernel::power_of(r, n, top) != unrolled[n](r)) FAIL("r = " << r << ", n = " << n);
    }
  }
}

TEST_CASE("the smoothed ReLU's power loop gives the unrolled power's bits for every integral exponent up to 16") {
  check_power_loop_bits(std::make_integer_sequence<int, activation_kernel::kMaxIntegerExponent + 1>{});
  // And through the kernel itself: α = 3 (the loop) against α = 3 written out.
  const activation_kernel::SmoothedRelu<activation_kernel::IntegerExponent> loop(Scalar(3), Scalar(0.5));
  const activation_kernel::SmoothedRelu<2> unrolled(Scalar(3), Scalar(0.5));
  for (const Scalar u : {Scalar(-1), Scalar(0.1), Scalar(0.3), Scalar(0.49), Scalar(0.7)}) {
    CHECK(loop(u).value == unrolled(u).value);
    CHECK(loop(u).slope == unrolled(u).slope);
  }
}

TEST_CASE("hook points expose the hidden layer") {
  auto model = harness().make<Model>("two-layer", {{"width", std::int64_t(4)}}, testing::spec(3, 2));
  Rng rng(2);
  model->init(rng);
  const Dataset data = batch_data(5, 3, 2, 1);
  Mat pre, post;
  model->hook("hidden.pre", data.X, pre);
  model->hook("hidden.post", data.X, post);
  CHECK(pre.rows() == 5);
  CHECK(pre.cols() == 4);
  CHECK(post.isApprox(pre.cwiseMax(Scalar(0))));
  CHECK_THROWS_WITH(model->hook("nope", data.X, pre), Catch::Contains("hidden.pre"));
}

TEST_CASE("two-layer gives the same bits on one, two and three threads (row chunks, D <= 32)") {
  const DataSpec s = testing::spec(2, 2);
  auto model = harness().make<Model>("two-layer", {{"width", std::int64_t(40)}, {"second_layer", std::string("trainable")}}, s, 11);
  auto loss = harness().make<Loss>("logistic", {}, s);
  Rng rng(3);
  model->init(rng);
  check_same_bits_on_threads(*model, *loss, batch_data(1003, 2, 2, 7, false), 1);  // not a multiple of the chunk count
}

// The FusedStep capability against the three calls it replaces: the blocked step of a small first layer (Li et
// al.'s m = 10 at D = 300; up to 16 units its products read X in place, tiles of 5 units and their
// remainders, inputs not whole strips; 40 units through Eigen) and the per-row step of few inputs (Frei et al.'s D = 2; widths that are not
// whole strips, D = 1 and 2 unrolled, D = 5 at run time), with and without a bias, with a fixed and a
// trained second layer, and every built-in activation kind; a model beyond both is not fused.
struct FusedCase {
  Index dim, width;
  bool bias;
  std::string second_layer, activation;
};

TEST_CASE("two-layer's fused step equals forward, the loss and backward") {
  // Not fused: D = 40 with 2000 units (80000 weights, too many for the blocked step; D > 32 is not the
  // recompute mode), and D = 12 (between the per-row step, D <= 8, and the blocked one, D > 32).
  for (const auto& [dim, width] : {std::pair<Index, Index>{40, 2000}, std::pair<Index, Index>{12, 40}}) {
    const DataSpec s = testing::spec(dim, 2);
    auto model = harness().make<Model>("two-layer", {{"width", width}}, s, 11);
    auto loss = harness().make<Loss>("logistic", {}, s);
    const Dataset data = batch_data(10, dim, 2, 7, false);
    Vec grad(model->trainable_size());
    Scalar value = 0;
    INFO("D = " << dim << ", m = " << width);
    CHECK_FALSE(dynamic_cast<FusedStep&>(*model).fused_step(Batch::of(data), dynamic_cast<SeparableLoss&>(*loss), grad,
                                                            value));
  }
  const std::vector<FusedCase> cases = {
      {300, 10, true, "trainable", "relu"},          {2, 500, false, "balanced", "relu"},
      {2, 40, true, "trainable", "leaky-relu"},      {2, 70, true, "balanced", "smoothed-relu"},
      {1, 33, true, "trainable", "relu"},            {5, 45, true, "trainable", "relu"},
      {5, 64, false, "random-sign", "identity"},     {8, 31, true, "trainable", "poly"},
      {784, 16, true, "trainable", "relu"},          {130, 7, false, "balanced", "smoothed-relu"},
      {100, 40, true, "trainable", "leaky-relu"},
  };
  for (const FusedCase& c : cases) {
    const DataSpec s = testing::spec(c.dim, 2);
    std::map<std::string, Value> params = {{"width", c.width},
                                           {"bias", c.bias},
                                           {"second_layer", c.second_layer},
                                           {"activation", c.activation}};
    if (c.bias) params["bias_init_scale"] = 0.1;
    if (c.activation == "smoothed-relu") params["smooth_rho"] = 0.5;
    auto model = harness().make<Model>("two-layer", params, s, 11);
    auto loss = harness().make<Loss>("logistic", {}, s);
    auto& output_loss = dynamic_cast<OutputLoss&>(*loss);
    const auto* rows = dynamic_cast<const SeparableLoss*>(loss.get());
    REQUIRE(rows != nullptr);
    Rng rng(3);
    model->init(rng);
    const Dataset data = batch_data(1003, c.dim, 2, 7, false);
    const Batch batch = Batch::of(data);
    Vec fused(model->trainable_size()), separate(model->trainable_size());
    Scalar fused_value = 0;
    INFO("D = " << c.dim << ", m = " << c.width << ", " << c.activation << ", " << c.second_layer);
    REQUIRE(dynamic_cast<FusedStep&>(*model).fused_step(batch, *rows, fused, fused_value));
    Mat out(data.size(), 1), dout(data.size(), 1);
    model->forward(data.X, out);
    const Scalar value = output_loss.value_and_gradient(out, batch, dout);
    model->backward(data.X, dout, separate);
    CHECK(fused_value == Approx(value).epsilon(1e-5));
    CHECK((fused - separate).norm() <= 1e-5 * separate.norm());
    CHECK(separate.norm() > 0);
    CHECK(loss->evaluate_with_gradient(*model, batch, separate) == fused_value);  // the loss takes the fused path
    CHECK(separate == fused);
  }
}

TEST_CASE("two-layer's fused steps give the same bits on one, two and three threads") {
  for (const Index dim : {Index(300), Index(2), Index(5)}) {
    const DataSpec s = testing::spec(dim, 2);
    auto model = harness().make<Model>("two-layer", {{"width", std::int64_t(dim == 300 ? 10 : 70)}, {"bias", true}}, s, 11);
    auto loss = harness().make<Loss>("logistic", {}, s);
    Rng rng(3);
    model->init(rng);
    const Dataset data = batch_data(1003, dim, 2, 7, false);
    auto run = [&](int threads, Vec& grad) {
      set_job_threads(threads);
      grad.resize(model->trainable_size());
      const Scalar value = loss->evaluate_with_gradient(*model, Batch::of(data), grad);
      set_job_threads(1);
      return value;
    };
    Vec g1, g2, g3;
    const Scalar v1 = run(1, g1), v2 = run(2, g2), v3 = run(3, g3);
    INFO("D = " << dim);
    CHECK(v1 == v2);
    CHECK(v1 == v3);
    CHECK(g1 == g2);
    CHECK(g1 == g3);
  }
}

// A first layer too wide to fuse: whole-batch products split into output blocks fixed by the shape
// (featurelab/parallel_product.hpp), so the bits do not depend on the threads either.
TEST_CASE("two-layer's whole-batch products give the same bits on one, two and three threads") {
  const DataSpec s = testing::spec(300, 3);
  auto model = harness().make<Model>("two-layer", {{"width", std::int64_t(300)}, {"second_layer", std::string("trainable")}}, s, 11);
  auto loss = harness().make<Loss>("cross-entropy", {}, s);
  Rng rng(3);
  model->init(rng);
  check_same_bits_on_threads(*model, *loss, batch_data(1003, 300, 3, 7, false), 3);
}

TEST_CASE("two-layer from 64 units: the register-tiled products against Eigen's, and the gradient against differences") {
  // 64 units (whole strips) and 70 (a padded last strip), 37 inputs, 300 rows (two row blocks) and 7: the
  // outputs and ∇W within rounding of the same network computed with Eigen's products here, and not the same
  // bits (the tiles sum in another order, so the tiled path is the one tested); then central differences.
  for (const Index width : {Index(64), Index(70)}) {
    const DataSpec s = testing::spec(37, 2);
    auto model = harness().make<Model>("two-layer", {{"width", width}, {"bias", true}, {"bias_init_scale", 0.5},
                                                     {"second_layer", std::string("trainable")}},
                                       s, 11);
    Rng rng(5);
    model->init(rng);
    for (const Index rows : {Index(300), Index(7)}) {
      const Dataset data = batch_data(rows, 37, 2, 9, false);
      const Mat W = model->block("W"), b = model->block("b"), a = model->block("a");
      const Mat Z = (data.X * W.transpose()).rowwise() + b.row(0);
      const Mat H = Z.cwiseMax(Scalar(0));
      Mat dout(rows, 1);
      rng.fill_normal(dout);
      const Mat G = (Z.array() > 0).cast<Scalar>() * (dout * a).array();
      const Mat dW = G.transpose() * data.X;
      Mat out(rows, 1);
      Vec grad(model->trainable_size());
      model->forward(data.X, out);
      model->backward(data.X, dout, grad);
      const ParamBlock& w = *model->find_block("W");
      const Mat tiled_dW = Eigen::Map<const Mat>(grad.data() + w.offset, width, 37);
      INFO(width << " units, " << rows << " rows");
      CHECK((out - H * a.transpose()).cwiseAbs().maxCoeff() <= 1e-5 * (1 + out.cwiseAbs().maxCoeff()));
      CHECK((tiled_dW - dW).cwiseAbs().maxCoeff() <= 1e-5 * (1 + dW.cwiseAbs().maxCoeff()));
      if (rows == 300 && std::is_same_v<Scalar, float>) CHECK((tiled_dW.array() != dW.array()).count() > 0);
    }
    auto loss = harness().make<Loss>("logistic", {}, s);
    const auto result = check_gradient(*model, *loss, Batch::of(batch_data(6, 37, 2, 10)), options_for("relu"));
    INFO(result.report);
    CHECK(result.ok);
  }
}

TEST_CASE("conv-net with a hidden layer: parameter, input and hidden-hook gradients") {
  const DataSpec two = testing::spec(2 * 6 * 4, 3);
  const Dataset data = batch_data(40, 2 * 6 * 4, 3, 9);  // two chunks
  auto model = harness().make<Model>("conv-net", {{"channels", std::vector<std::int64_t>{3, 2}}, {"kernel", std::int64_t(3)},
                                                  {"in_channels", std::int64_t(2)}, {"height", std::int64_t(6)},
                                                  {"hidden", std::int64_t(5)}, {"activation", std::string("smoothed-relu")},
                                                  {"pool", std::string("average")}}, two, 4);
  Rng rng(6);
  model->init(rng);
  CHECK(model->block("hidden.W").rows() == 5);
  CHECK(model->block("head.W").cols() == 5);
  auto loss = harness().make<Loss>("cross-entropy", {}, two);
  const auto result = check_gradient(*model, *loss, Batch::of(data), options_for("relu"));
  INFO(result.report);
  CHECK(result.ok);
  const auto input = check_input_gradient(*model, Batch::of(data), options_for("relu"));
  INFO(input.report);
  CHECK(input.ok);
  // hook_backward("hidden") adds d Σ(G ∘ hidden)/dθ, against central differences of that sum.
  Mat hidden;
  model->hook("hidden", data.X, hidden);
  CHECK(hidden.cols() == 5);
  check_hook_backward(*model, "hidden", data.X, 5, rng);
}

TEST_CASE("conv-net: a convolution with ReLU and pooling by hand, and parameter, input and hook gradients for both poolings") {
  // One 4×4 grey image, one 3×3 filter that copies the centre pixel: the convolution is the image, the
  // ReLU zeroes its negative pixels, 2×2 max pooling keeps each quadrant's largest, the head sums them.
  const DataSpec one = testing::spec(16, 2);
  auto net = harness().make<Model>("conv-net", {{"channels", std::vector<std::int64_t>{1}}, {"kernel", std::int64_t(3)}}, one, 1);
  net->block("conv1.W").setZero();
  net->block("conv1.W")(0, 4) = 1;  // (dy, dx) = (1, 1): the centre
  net->block("conv1.b").setZero();
  net->block("head.W").setOnes();
  net->block("head.b").setZero();
  Mat image(1, 16);
  image << 1, -2, 3, 0,  //
      -1, 5, -4, 2,      //
      0, -3, -1, -2,     //
      7, 1, 2, 6;
  Mat out(1, 1);
  net->forward(image, out);
  CHECK(out(0, 0) == Approx(5 + 3 + 7 + 6));
  Mat features;
  net->hook("features", image, features);
  CHECK(features.cols() == 4);
  CHECK(features(0, 0) == Approx(5));
  CHECK(features(0, 3) == Approx(6));
  // Average pooling of the ReLU: (1 + 5)/4, (3 + 2)/4, (7 + 1)/4, (2 + 6)/4.
  auto mean = harness().make<Model>("conv-net", {{"channels", std::vector<std::int64_t>{1}}, {"kernel", std::int64_t(3)},
                                                 {"pool", std::string("average")}}, one, 1);
  mean->parameters() = net->parameters();
  mean->forward(image, out);
  CHECK(out(0, 0) == Approx((6 + 5 + 8 + 8) / 4.0));

  // Two channels of 6×4 images (not square), two blocks (6×4 → 3×2 → 1×1), both poolings, three classes.
  const DataSpec two = testing::spec(2 * 6 * 4, 3);
  const Dataset data = batch_data(5, 2 * 6 * 4, 3, 9);
  for (const char* pool : {"max", "average"}) {
    INFO("pool = " << pool);
    auto model = harness().make<Model>("conv-net", {{"channels", std::vector<std::int64_t>{3, 2}}, {"kernel", std::int64_t(3)},
                                                    {"in_channels", std::int64_t(2)}, {"height", std::int64_t(6)},
                                                    {"pool", std::string(pool)}}, two, 4);
    Rng rng(6);
    model->init(rng);
    rng.fill_normal(model->block("conv1.b"), 0.3);
    auto loss = harness().make<Loss>("cross-entropy", {}, two);
    const auto result = check_gradient(*model, *loss, Batch::of(data), options_for("relu"));
    INFO(result.report);
    CHECK(result.ok);
    const auto input = check_input_gradient(*model, Batch::of(data), options_for("relu"));
    INFO(input.report);
    CHECK(input.ok);
  }
  // hook_backward("features") adds d Σ(G ∘ features)/dθ, against central differences of that sum.
  auto hooked = harness().make<Model>("conv-net", {{"channels", std::vector<std::int64_t>{3, 2}}, {"kernel", std::int64_t(3)},
                                                   {"in_channels", std::int64_t(2)}, {"height", std::int64_t(6)}}, two, 4);
  Rng rng(8);
  hooked->init(rng);
  check_hook_backward(*hooked, "features", data.X, 7, rng);
  // More rows than one chunk (256 images): the same outputs as row by row, and the gradients across chunks.
  const DataSpec small = testing::spec(36, 2);
  const Dataset many = batch_data(300, 36, 2, 12);
  auto chunked = harness().make<Model>("conv-net", {{"channels", std::vector<std::int64_t>{2}}, {"kernel", std::int64_t(3)}}, small, 2);
  Rng init_rng(13);
  chunked->init(init_rng);
  Mat all(300, 1), single(1, 1);
  chunked->forward(many.X, all);
  for (Index i : {0, 255, 256, 299}) {
    chunked->forward(many.X.row(i), single);
    CHECK(single(0, 0) == Approx(all(i, 0)).margin(1e-5));
  }
  auto logistic = harness().make<Loss>("logistic", {}, small);
  const auto across = check_gradient(*chunked, *logistic, Batch::of(many), options_for("relu"));
  INFO(across.report);
  CHECK(across.ok);
  const auto across_input = check_input_gradient(*chunked, Batch::of(many), options_for("relu"));
  INFO(across_input.report);
  CHECK(across_input.ok);
  // Bad shapes are refused with the fix.
  CHECK_THROWS_WITH(harness().make<Model>("conv-net", {}, testing::spec(30, 2), 1), Catch::Contains("set height"));
  CHECK_THROWS_WITH(harness().make<Model>("conv-net", {{"kernel", std::int64_t(4)}}, one, 1), Catch::Contains("odd"));
  CHECK_THROWS_WITH(harness().make<Model>("conv-net", {{"channels", std::vector<std::int64_t>{2, 2, 2}}}, one, 1),
                    Catch::Contains("room for 2 blocks"));
}
