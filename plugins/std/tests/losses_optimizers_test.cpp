// std losses at hand-computed values; optimizers' first steps against PyTorch's formulas; schedules.
#include "std_harness.hpp"

#include <featurelab/capabilities.hpp>
#include <featurelab/testing.hpp>
#include <featurelab/threads.hpp>
#include <featurelab/tunable.hpp>

#include <catch2/catch.hpp>

#include <cmath>

using namespace featurelab;
using std_test::harness;
using std_test::Overrides;

namespace {

struct Fixed {
  Dataset data;
  Mat out;
};

double loss_value(const std::string& name, const Mat& out, const IVec& y, const Overrides& params = {},
                  const Mat& targets = Mat()) {
  auto loss = harness().make<OutputLoss>(name, params, {});
  Dataset d;
  d.X = Mat::Zero(out.rows(), 1);
  d.y = y;
  d.T = targets;
  d.classes = out.cols() == 1 ? 2 : static_cast<int>(out.cols());
  Mat dout(out.rows(), out.cols());
  return static_cast<double>(loss->value_and_gradient(out, Batch::of(d), dout));
}

}  // namespace

TEST_CASE("loss values") {
  IVec y(2);
  y << 1, 0;
  CHECK(loss_value("logistic", Mat::Zero(2, 1), y) == Approx(std::log(2.0)));
  Mat f(2, 1);
  f << 2, 2;  // margins +2 and −2
  CHECK(loss_value("logistic", f, y) == Approx(0.5 * (std::log1p(std::exp(-2.0)) + std::log1p(std::exp(2.0)))));
  CHECK(loss_value("logistic", Mat::Constant(2, 1, 1000), y) == Approx(500).epsilon(1e-4));  // stable, no inf
  CHECK(loss_value("hinge", f, y) == Approx(0.5 * (0 + 3)));
  CHECK(loss_value("squared", f, y) == Approx(0.5 * 0.5 * (1 + 9)));
  IVec y3(2);
  y3 << 0, 2;
  CHECK(loss_value("cross-entropy", Mat::Zero(2, 3), y3) == Approx(std::log(3.0)));
  Mat o(1, 3);
  o << 1, 2, 3;
  IVec y1(1);
  y1 << 2;
  const double lse = std::log(std::exp(1.0) + std::exp(2.0) + std::exp(3.0));
  CHECK(loss_value("cross-entropy", o, y1) == Approx(lse - 3));
  Mat t(1, 3);
  t << 0.5, 0, 0.5;  // soft targets
  CHECK(loss_value("cross-entropy", o, y1, {}, t) == Approx(lse - 2));
  CHECK(loss_value("cross-entropy", o, y1, {{"label_smoothing", 0.3}}) ==
        Approx(0.7 * (lse - 3) + 0.1 * (3 * lse - 6)));
  Mat hinge_out(1, 3);
  hinge_out << 0.5, 0.2, 1.0;  // y = 2: margin 1 + 0.5 − 1 = 0.5
  CHECK(loss_value("hinge", hinge_out, y1) == Approx(0.5));
}

// A separable loss computed in blocks of rows (what a model's fused step calls from several threads)
// gives the whole batch's mean and gradient: hard labels, soft targets and label smoothing.
TEST_CASE("row_block of the separable losses equals value_and_gradient") {
  struct Arm {
    std::string loss;
    Index outputs;
    bool soft;
    Overrides params;
  };
  const std::vector<Arm> arms = {{"logistic", 1, false, {}},
                                 {"logistic", 1, true, {}},
                                 {"cross-entropy", 4, false, {}},
                                 {"cross-entropy", 4, true, {}},
                                 {"cross-entropy", 4, false, {{"label_smoothing", 0.2}}}};
  for (const Arm& arm : arms) {
    auto loss = harness().make<OutputLoss>(arm.loss, arm.params, {});
    const auto* separable = dynamic_cast<const SeparableLoss*>(loss.get());
    REQUIRE(separable != nullptr);
    const Index n = 13;
    Rng rng(5);
    Mat out(n, arm.outputs);
    rng.fill_normal(out, 2.0);
    Dataset d;
    d.X = Mat::Zero(n, 1);
    d.y.resize(n);
    for (Index i = 0; i < n; ++i) d.y(i) = static_cast<std::int32_t>(i % std::max<Index>(arm.outputs, 2));
    d.classes = static_cast<int>(std::max<Index>(arm.outputs, 2));
    if (arm.soft) {
      d.T = Mat::Random(n, arm.outputs).array().abs();
      if (arm.outputs > 1) d.T.array().colwise() /= d.T.rowwise().sum().array();
    }
    const Batch batch = Batch::of(d);
    Mat whole(n, arm.outputs), blocks(n, arm.outputs);
    const double value = static_cast<double>(loss->value_and_gradient(out, batch, whole));
    double sum = 0;
    for (Index first = 0; first < n; first += 5) {
      const Index rows = std::min<Index>(5, n - first);
      sum += separable->row_block(out.middleRows(first, rows), batch, first, n, blocks.middleRows(first, rows));
    }
    INFO(arm.loss << (arm.soft ? ", soft targets" : ""));
    CHECK(sum / static_cast<double>(n) == Approx(value).epsilon(1e-5));
    CHECK((blocks - whole).cwiseAbs().maxCoeff() <= 1e-6);
  }
}

TEST_CASE("losses refuse models with the wrong number of outputs") {
  DataSpec s;
  s.dim = 2;
  s.classes = 3;
  auto model = harness().make<Model>("linear", {}, s);
  CHECK_THROWS_WITH(harness().make<Loss>("logistic", {}, s)->check_model(*model, s),
                    Catch::Contains("set model.outputs = 1"));
  s.classes = 2;
  auto binary = harness().make<Model>("linear", {}, s);
  CHECK_THROWS_WITH(harness().make<Loss>("cross-entropy", {}, s)->check_model(*binary, s),
                    Catch::Contains("set model.outputs = 2"));
}

namespace {
// Two steps of an optimizer on θ = (1, −2) with gradients g1 = (0.5, 1), g2 = (−1, 0.25).
Vec two_steps(const std::string& name, const Overrides& params) {
  auto opt = harness().make<Optimizer>(name, params, {});
  Vec theta(2), g1(2), g2(2);
  theta << 1, -2;
  g1 << 0.5, 1;
  g2 << -1, 0.25;
  opt->reset(2);
  opt->step(theta, g1, 0);
  opt->step(theta, g2, 1);
  return theta;
}
}  // namespace

TEST_CASE("optimizer steps follow PyTorch's update rules") {
  Vec theta0(2), g1(2), g2(2);
  theta0 << 1, -2;
  g1 << 0.5, 1;
  g2 << -1, 0.25;
  SECTION("gd") {
    const Vec expect = theta0 - 0.1 * (g1 + g2);
    CHECK(two_steps("gd", {{"lr", 0.1}}).isApprox(expect, 1e-5));
  }
  SECTION("sgd with momentum and weight decay") {
    const double lr = 0.1, mu = 0.9, wd = 0.01;
    Vec th = theta0;
    Vec gg = g1 + wd * th;
    Vec v = gg;
    th -= lr * v;
    gg = g2 + wd * th;
    v = mu * v + gg;
    th -= lr * v;
    CHECK(two_steps("sgd", {{"lr", lr}, {"momentum", mu}, {"weight_decay", wd}}).isApprox(th, 1e-5));
  }
  SECTION("adam and adamw") {
    for (bool decoupled : {false, true}) {
      const double lr = 0.01, b1 = 0.9, b2 = 0.999, eps = 1e-8, wd = 0.1;
      Vec th = theta0, m = Vec::Zero(2), v = Vec::Zero(2);
      for (int t = 1; t <= 2; ++t) {
        Vec g = t == 1 ? g1 : g2;
        if (decoupled) {
          th *= 1 - lr * wd;
        } else {
          g += wd * th;
        }
        m = b1 * m + (1 - b1) * g;
        v = b2 * v + (1 - b2) * g.cwiseAbs2();
        const Vec mh = m / (1 - std::pow(b1, t));
        const Vec vh = v / (1 - std::pow(b2, t));
        th.array() -= lr * mh.array() / (vh.array().sqrt() + eps);
      }
      CHECK(two_steps(decoupled ? "adamw" : "adam", {{"lr", lr}, {"weight_decay", wd}}).isApprox(th, 1e-5));
    }
  }
}

TEST_CASE("adam, adamw and sgd give a long vector the bits of one whole-vector pass on any number of threads") {
  // 50,001 values: over the size where the update runs in chunks on the job's threads. A chunk that started
  // mid-register would take Eigen's scalar sqrt where one pass over the whole vector takes the vectorised one, and
  // they round differently. The reference is the optimizer itself on two pieces below that size (each one pass):
  // the first 12,800 values, across two chunk boundaries, and the last 2,001 from value 48,000, with the odd end.
  // θ starts at 0 and the gradients span twelve decades, so that a root rounded the other way shows in θ. sgd
  // (momentum 0.9) has no root; its chunks must still not move a value between the vector and the scalar code.
  const Index size = 50001, head = 12800, tail_from = 48000;
  Rng rng(3);
  const Vec theta0 = Vec::Zero(size);
  Vec g1(size), g2(size), decades(size);
  rng.fill_normal(g1, 1.0);
  rng.fill_normal(g2, 1.0);
  rng.fill_uniform(decades, -6, 6);
  g1.array() *= (decades.array() * Scalar(std::log(10.0))).exp();
  g2.array() *= (decades.array().reverse() * Scalar(std::log(10.0))).exp();
  const auto two_long_steps = [&](const std::string& name, Index first, Index count, int threads) {
    auto opt = harness().make<Optimizer>(name, {{"lr", 0.01}, {"weight_decay", 0.1}}, {});
    Vec theta = theta0.segment(first, count);
    const Vec a = g1.segment(first, count), b = g2.segment(first, count);
    opt->reset(count);
    set_job_threads(threads);
    opt->step(theta, a, 0);
    opt->step(theta, b, 1);
    set_job_threads(1);
    return theta;
  };
  for (const std::string name : {"adam", "adamw", "sgd"}) {
    const Vec first_piece = two_long_steps(name, 0, head, 1), last_piece = two_long_steps(name, tail_from, size - tail_from, 1);
    for (int threads : {1, 2}) {
      const Vec whole = two_long_steps(name, 0, size, threads);
      INFO(name << " on " << threads << " thread(s)");
      CHECK((whole.head(head).array() != first_piece.array()).count() == 0);
      CHECK((whole.tail(size - tail_from).array() != last_piece.array()).count() == 0);
    }
  }
}

TEST_CASE("learning-rate schedules") {
  DataSpec none;
  auto constant = harness().make<Optimizer>("gd", {{"lr", 0.5}}, none);
  CHECK(constant->learning_rate(1000) == Approx(0.5));
  auto step = harness().make<Optimizer>("gd", {{"lr", 1.0}, {"schedule", std::string("step")}, {"step_every", std::int64_t(10)},
                                               {"gamma", 0.5}}, none);
  CHECK(step->learning_rate(9) == Approx(1.0));
  CHECK(step->learning_rate(10) == Approx(0.5));
  CHECK(step->learning_rate(25) == Approx(0.25));
  auto warm = harness().make<Optimizer>("sgd", {{"lr", 1.0}, {"warmup", std::int64_t(4)}}, none);
  CHECK(warm->learning_rate(0) == Approx(0.25));
  CHECK(warm->learning_rate(3) == Approx(1.0));
}

TEST_CASE("the cosine schedule runs from lr to final_fraction·lr over the trainer's steps") {
  Context ctx;
  ctx.total_steps = 101;
  const auto& info = harness().info(Kind::Optimizer, "adam");
  auto made = info.create(testing::resolve(info.schema, {{"lr", 1.0}, {"schedule", std::string("cosine")},
                                                          {"final_fraction", 0.1}}),
                          ctx);
  auto* opt = static_cast<Optimizer*>(made.get());
  CHECK(opt->learning_rate(0) == Approx(1.0));
  CHECK(opt->learning_rate(50) == Approx(0.55));
  CHECK(opt->learning_rate(100) == Approx(0.1));
}

TEST_CASE("class-balanced hinge weights each class by n/(K count), and is Tunable") {
  IVec y(4);
  y << 1, 0, 0, 0;  // one positive, three negatives
  Mat f(4, 1);
  f << 0, 0, 0, 0;  // every slack is 1
  CHECK(loss_value("hinge", f, y) == Approx(1.0));
  CHECK(loss_value("hinge", f, y, {{"class_weights", std::string("balanced")}}) == Approx(1.0));  // weights average 1
  f << -1, 0, 0, 0;  // the positive's slack is 2: balanced weight 4/(2·1) = 2, negatives 4/(2·3)
  CHECK(loss_value("hinge", f, y) == Approx((2 + 1 + 1 + 1) / 4.0));
  CHECK(loss_value("hinge", f, y, {{"class_weights", std::string("balanced")}}) == Approx((2 * 2 + 3 * (2.0 / 3)) / 4));
  auto loss = harness().make<Loss>("hinge", {}, {});
  auto* tunable = dynamic_cast<Tunable*>(loss.get());
  REQUIRE(tunable);
  CHECK_THROWS_WITH(tunable->tune("temperature", 1), Catch::Contains("class_balance"));
}
