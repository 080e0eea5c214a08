// patch-two-layer: the formula of Eq. 4.1 against a per-sample loop, gradients against finite
// differences, with the smoothed and the plain ReLU.
#include "mm_harness.hpp"

#include <featurelab/capabilities.hpp>
#include <featurelab/gradient_check.hpp>
#include <featurelab/threads.hpp>

#include <catch2/catch.hpp>

#include <cmath>

using namespace featurelab;
using mm_test::pack;
using mm_test::patch_spec;
using mm_test::std_pack;

namespace {
double smoothed(double u, double alpha, double rho) {
  if (u <= 0) return 0;
  if (u <= rho) return std::pow(u, alpha) / (alpha * std::pow(rho, alpha - 1));
  return u - (1 - 1 / alpha) * rho;
}
}  // namespace

// d = 4: one product block; d = 70 at P = 3: the same formula whatever the shape.
TEST_CASE("patch-two-layer computes g^y(x) = sum_r sum_p ReLU~(<w_yr, x_p>)") {
  const Index d = GENERATE(Index(4), Index(70));
  const Index P = 3, m = 2;
  const int k = 3;
  auto model = pack().make<Model>("patch-two-layer", {{"neurons", std::int64_t(m)}, {"alpha", 3.0}, {"rho", 0.5}},
                                  patch_spec(P, d, k));
  Rng rng(1);
  model->init(rng);
  Mat X(5, P * d);
  rng.fill_normal(X);
  Mat out(5, k);
  model->forward(X, out);
  const auto W = std::as_const(*model).block("W");
  for (Index i = 0; i < 5; ++i) {
    for (Index y = 0; y < k; ++y) {
      double g = 0;
      for (Index r = 0; r < m; ++r) {
        for (Index p = 0; p < P; ++p) g += smoothed(W.row(y * m + r).dot(X.row(i).segment(p * d, d)), 3.0, 0.5);
      }
      CHECK(out(i, y) == Approx(g).epsilon(1e-4).margin(1e-6));
    }
  }
}

TEST_CASE("patch-two-layer gradients with cross-entropy, hard and soft targets") {
  for (const std::string act : {"smoothed-relu", "relu"}) {
    for (bool soft : {false, true}) {
      const DataSpec s = patch_spec(4, 6, 3);
      auto model = pack().make<Model>("patch-two-layer", {{"neurons", std::int64_t(2)}, {"activation", act}, {"alpha", 3.0},
                                                          {"rho", 0.3}, {"init_std", 0.5}}, s);
      auto loss = std_pack().make<Loss>("cross-entropy", {}, s);
      Rng rng(7);
      model->init(rng);
      Dataset data;
      data.X.resize(5, 24);
      rng.fill_normal(data.X);
      data.y.resize(5);
      data.y << 0, 1, 2, 1, 0;
      data.classes = 3;
      if (soft) {
        data.T = Mat::Constant(5, 3, Scalar(1) / 3);
      }
      GradientCheckOptions o;
      if (act == "relu") o.step = std::is_same_v<Scalar, float> ? 2e-3 : 1e-6;
      const auto r = check_gradient(*model, *loss, Batch::of(data), o);
      INFO(act << (soft ? " soft" : " hard") << "\n" << r.report);
      CHECK(r.ok);
      if (act == "relu") continue;  // 120 pre-activations: a finite step crosses some kink; same code path
      const auto in = check_input_gradient(*model, Batch::of(data), o);
      INFO(in.report);
      CHECK(in.ok);
    }
  }
}

TEST_CASE("patch-two-layer refuses data without patches") {
  const DataSpec flat = testing::spec(10, 3);
  CHECK_THROWS_WITH(pack().make<Model>("patch-two-layer", {}, flat), Catch::Contains("needs patch data"));
}

TEST_CASE("patch-two-layer with a wide patch: gradients against finite differences") {
  const DataSpec s = patch_spec(3, 70, 3);
  auto model = pack().make<Model>("patch-two-layer", {{"neurons", std::int64_t(2)}, {"alpha", 3.0}, {"rho", 0.3}, {"init_std", 0.5}}, s);
  auto loss = std_pack().make<Loss>("cross-entropy", {}, s);
  Rng rng(7);
  model->init(rng);
  Dataset data;
  data.X.resize(5, 210);
  rng.fill_normal(data.X);
  data.y.resize(5);
  data.y << 0, 1, 2, 1, 0;
  data.classes = 3;
  const auto r = check_gradient(*model, *loss, Batch::of(data), {});
  INFO(r.report);
  CHECK(r.ok);
  const auto in = check_input_gradient(*model, Batch::of(data), {});
  INFO(in.report);
  CHECK(in.ok);
}

TEST_CASE("patch-two-layer gives the same bits on one, two and three threads") {
  const Index d = GENERATE(Index(20), Index(70));
  const DataSpec s = patch_spec(10, d, 4);
  auto model = pack().make<Model>("patch-two-layer", {{"neurons", std::int64_t(5)}}, s);
  auto loss = std_pack().make<Loss>("cross-entropy", {}, s);
  Rng rng(3);
  model->init(rng);
  Dataset data;
  data.X.resize(203, 10 * d);
  rng.fill_normal(data.X);
  data.y.resize(203);
  for (Index i = 0; i < 203; ++i) data.y(i) = static_cast<std::int32_t>(i % 4);
  data.classes = 4;
  // The loss's step (the fused one), and forward then backward (the whole-batch products).
  auto run = [&](int threads, Vec& grad, Vec& separate) {
    set_job_threads(threads);
    grad.resize(model->trainable_size());
    separate.resize(model->trainable_size());
    const Scalar value = loss->evaluate_with_gradient(*model, Batch::of(data), grad);
    Mat out(203, 4);
    model->forward(data.X, out);
    model->backward(data.X, Mat::Constant(203, 4, Scalar(0.25)), separate);
    set_job_threads(1);
    return value;
  };
  Vec g1, g2, g3, s1, s2, s3;
  const Scalar v1 = run(1, g1, s1), v2 = run(2, g2, s2), v3 = run(3, g3, s3);
  INFO("d = " << d);
  CHECK(v1 == v2);
  CHECK(v1 == v3);
  CHECK(g1 == g2);
  CHECK(g1 == g3);
  CHECK(s1 == s2);
  CHECK(s1 == s3);
}

// The fused step (forward, loss and backward per block of samples, φ' and the patch gradient written
// over the block's pre-activations) against the three calls it replaces: hard labels and the soft
// targets of a mixed batch, at warm-start.toml's patch shape and with blocks of one sample (P·k·m
// above the block size).
TEST_CASE("patch-two-layer's fused step equals forward, the loss and backward") {
  struct Shape {
    Index P, d, m;
    int k;
  };
  for (const Shape shape : {Shape{100, 20, 10, 10}, Shape{300, 8, 25, 10}}) {
    for (const bool soft : {false, true}) {
      const DataSpec s = patch_spec(shape.P, shape.d, shape.k);
      auto model = pack().make<Model>("patch-two-layer", {{"neurons", std::int64_t(shape.m)}}, s);
      auto loss = std_pack().make<Loss>("cross-entropy", {}, s);
      auto& output_loss = dynamic_cast<OutputLoss&>(*loss);
      Rng rng(3);
      model->init(rng);
      const Index n = 37;
      Dataset data;
      data.X.resize(n, shape.P * shape.d);
      rng.fill_normal(data.X);
      data.y.resize(n);
      for (Index i = 0; i < n; ++i) data.y(i) = static_cast<std::int32_t>(i % shape.k);
      data.classes = shape.k;
      if (soft) {
        data.T = Mat::Zero(n, shape.k);
        for (Index i = 0; i < n; ++i) {
          data.T(i, data.y(i)) = 0.7f;
          data.T(i, (data.y(i) + 1) % shape.k) = 0.3f;
        }
      }
      const Batch batch = Batch::of(data);
      Vec fused(model->trainable_size()), separate(model->trainable_size());
      Scalar fused_value = 0;
      REQUIRE(dynamic_cast<FusedStep&>(*model).fused_step(batch, dynamic_cast<const SeparableLoss&>(output_loss), fused,
                                                          fused_value));
      Mat out(n, shape.k), dout(n, shape.k);
      model->forward(data.X, out);
      const Scalar value = output_loss.value_and_gradient(out, batch, dout);
      model->backward(data.X, dout, separate);
      INFO("P = " << shape.P << ", soft targets " << soft);
      CHECK(fused_value == Approx(value).epsilon(1e-5));
      CHECK((fused - separate).norm() <= 1e-5 * separate.norm());
      CHECK(loss->evaluate_with_gradient(*model, batch, separate) == fused_value);  // the loss takes the fused path
      CHECK(separate == fused);
    }
  }
}
