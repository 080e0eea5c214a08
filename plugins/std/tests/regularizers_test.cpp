// std regularizers: values at hand-computed points, gradients against central differences of the
// penalty, the warm-up, the frozen first layer of random-features, and the errors that name the fix.
#include "std_harness.hpp"

#include <featurelab/linalg.hpp>
#include <featurelab/optimizer.hpp>
#include <featurelab/regularizer.hpp>

#include <catch2/catch.hpp>

#include <cmath>

using namespace featurelab;
using std_test::harness;
using std_test::Overrides;

namespace {

struct Setup {
  std::shared_ptr<Model> model;
  Dataset data;
};

Setup two_layer(const std::string& activation = "poly", const std::string& name = "two-layer") {
  Setup s;
  // A random bias keeps F = XWᵀ + b at full rank 5 (zero, it has rank 4 = dim: a kink of the nuclear norm).
  Overrides params = {{"width", std::int64_t(5)}, {"bias", true}, {"bias_init_scale", 0.3}};
  if (name == "two-layer") params["activation"] = activation;
  if (name == "two-layer") params["second_layer"] = std::string("trainable");
  s.model = harness().make<Model>(name, params, testing::spec(4), 3);
  Rng rng(7);
  s.model->init(rng);
  s.data.resize(12, 4);
  s.data.classes = 2;
  rng.fill_normal(s.data.X, 1.0);
  for (Index i = 0; i < 12; ++i) s.data.y(i) = static_cast<std::int32_t>(i % 2);
  return s;
}

// max_j |analytic_j − (R(θ + h e_j) − R(θ − h e_j)) / 2h| / (|analytic|_∞ + 1e-3), in double.
double gradient_error(Regularizer& reg, Model& model, const Batch& batch, Index step) {
  const Index p = model.trainable_size();
  Vec grad = Vec::Zero(p);
  reg.add_penalty(model, batch, step, grad);
  const double h = kDouble ? 1e-6 : 1e-2;
  double worst = 0;
  for (Index j = 0; j < p; ++j) {
    const Scalar keep = model.parameters()(j);
    model.parameters()(j) = static_cast<Scalar>(keep + h);
    const double up = reg.penalty(model, batch, step);
    model.parameters()(j) = static_cast<Scalar>(keep - h);
    const double down = reg.penalty(model, batch, step);
    model.parameters()(j) = keep;
    worst = std::max(worst, std::abs(static_cast<double>(grad(j)) - (up - down) / (2 * h)));
  }
  return worst / (static_cast<double>(grad.cwiseAbs().maxCoeff()) + 1e-3);
}

}  // namespace

TEST_CASE("l2 and l1 penalties over chosen blocks") {
  Setup s = two_layer();
  const Batch batch = Batch::of(s.data);
  auto l2 = harness().make<Regularizer>("l2", {{"lambda", 0.5}, {"blocks", std::vector<std::string>{"W"}}}, testing::spec(4));
  l2->bind(*s.model);
  const double w2 = static_cast<double>(s.model->block("W").squaredNorm());
  Vec grad = Vec::Zero(s.model->trainable_size());
  CHECK(l2->add_penalty(*s.model, batch, 0, grad) == Approx(0.25 * w2).epsilon(1e-5));
  const ParamBlock& W = *s.model->find_block("W");
  const ParamBlock& a = *s.model->find_block("a");
  CHECK((grad.segment(W.offset, W.size()) - Scalar(0.5) * s.model->parameters().segment(W.offset, W.size()))
            .cwiseAbs().maxCoeff() < 1e-6);
  CHECK(grad.segment(a.offset, a.size()).isZero());  // not in blocks: untouched

  auto l1 = harness().make<Regularizer>("l1", {{"lambda", 0.1}}, testing::spec(4));  // every trainable block
  l1->bind(*s.model);
  grad.setZero();
  const double abs_sum = static_cast<double>(s.model->parameters().head(s.model->trainable_size()).cwiseAbs().sum());
  CHECK(l1->add_penalty(*s.model, batch, 0, grad) == Approx(0.1 * abs_sum).epsilon(1e-5));
  // The subgradient λ·sign(θ), exactly (finite differences would straddle the kink of a small entry).
  const Vec theta = s.model->parameters().head(s.model->trainable_size());
  CHECK((grad - Scalar(0.1) * theta.array().sign().matrix()).cwiseAbs().maxCoeff() < 1e-7);
}

TEST_CASE("nuclear-norm: the value is the sum of singular values over N and the gradient U V-transpose") {
  // 12 rows: the Gram matrix FᵀF (5×5); 3 rows: FFᵀ (3×3).
  for (const auto& [hook, rows] : {std::pair{"hidden.pre", 12}, std::pair{"hidden.post", 12}, std::pair{"hidden.post", 3}}) {
    Setup s = two_layer();
    const Batch batch = Batch::rows(s.data, 0, rows);
    auto nu = harness().make<Regularizer>("nuclear-norm", {{"lambda", 0.3}, {"hook", hook}}, testing::spec(4));
    nu->bind(*s.model);
    Mat F;
    s.model->hook(hook, batch.X(), F);
    const Eigen::MatrixXd Fd = F.cast<double>();
    const double nuclear = singular_values(Fd).sum();
    CHECK(nu->penalty(*s.model, batch, 0) == Approx(0.3 * nuclear / rows).epsilon(1e-5));
    INFO(hook << " with " << rows << " rows");
    CHECK(gradient_error(*nu, *s.model, batch, 0) < (kDouble ? 1e-5 : 3e-2));
  }
}

TEST_CASE("nuclear-norm: off during the warm-up, off for lambda 0, nothing below a frozen layer") {
  Setup s = two_layer();
  const Batch batch = Batch::of(s.data);
  auto nu = harness().make<Regularizer>("nuclear-norm",
                                        {{"lambda", 1.0}, {"hook", std::string("hidden.post")}, {"warmup", std::int64_t(100)}},
                                        testing::spec(4));
  nu->bind(*s.model);
  Vec grad = Vec::Zero(s.model->trainable_size());
  CHECK(nu->add_penalty(*s.model, batch, 99, grad) == 0);
  CHECK(grad.isZero());
  CHECK(nu->add_penalty(*s.model, batch, 100, grad) > 0);
  CHECK(!grad.isZero());

  Setup rf = two_layer("relu", "random-features");
  auto frozen = harness().make<Regularizer>("nuclear-norm", {{"hook", std::string("hidden.post")}}, testing::spec(4));
  frozen->bind(*rf.model);
  Vec g = Vec::Zero(rf.model->trainable_size());
  CHECK(frozen->add_penalty(*rf.model, Batch::of(rf.data), 0, g) > 0);  // the value counts
  CHECK(g.isZero());  // but the only trainable block sits above the hook
}

TEST_CASE("regularizers refuse what the model does not have, naming what it has") {
  Setup s = two_layer();
  auto l2 = harness().make<Regularizer>("l2", {{"blocks", std::vector<std::string>{"V"}}}, testing::spec(4));
  CHECK_THROWS_WITH(l2->bind(*s.model), Catch::Contains("'V'") && Catch::Contains("W, b, a"));
  Setup rf = two_layer("relu", "random-features");
  auto frozen = harness().make<Regularizer>("l1", {{"blocks", std::vector<std::string>{"W"}}}, testing::spec(4));
  CHECK_THROWS_WITH(frozen->bind(*rf.model), Catch::Contains("frozen"));
  auto nu = harness().make<Regularizer>("nuclear-norm", {}, testing::spec(4));  // hook "features"
  CHECK_THROWS_WITH(nu->bind(*s.model), Catch::Contains("hidden.pre, hidden.post"));
  auto linear = harness().make<Model>("linear", {}, testing::spec(4));
  auto nu_pre = harness().make<Regularizer>("nuclear-norm", {{"hook", std::string("hidden.pre")}}, testing::spec(4));
  CHECK_THROWS_WITH(nu_pre->bind(*linear), Catch::Contains("it has none"));
}

TEST_CASE("gd with l1 soft-thresholds after the step: exact zeros where the gradient is below the threshold") {
  auto gd = harness().make<Optimizer>("gd", {{"lr", 0.5}, {"l1", 0.4}});
  gd->reset(3);
  Vec theta(3), grad(3);
  theta << 0.0, 1.0, -1.0;
  grad << 0.3, -0.5, 0.1;  // step: 0 − 0.15, 1 + 0.25, −1 − 0.05; then shrink by 0.2
  gd->step(theta, grad, 0);
  CHECK(theta(0) == 0);
  CHECK(theta(1) == Approx(1.05));
  CHECK(theta(2) == Approx(-0.85));
}
