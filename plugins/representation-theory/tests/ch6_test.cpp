// Chapter 6's components on their own: the distributions' moments and the 2-D toy's population identity
// err_OOD = (7/3)·err_ID (our derivation from Sec. 6.3.1's specification), the
// models' gradients and hook backpropagation against finite differences, hard thresholding, and the probes on
// constructed weights.
#include <featurelab/distribution.hpp>
#include <featurelab/error.hpp>
#include <featurelab/gradient_check.hpp>
#include <featurelab/optimizer.hpp>
#include <featurelab/probe.hpp>
#include <featurelab/testing.hpp>

#include "rt_harness.hpp"

#include <catch2/catch.hpp>

#include <cmath>

using namespace featurelab;
using rt_test::pack;
using rt_test::std_pack;

namespace {

// z = z̃·y, per coordinate mean over the rows.
VecD label_multiplied_mean(const Mat& X, const IVec& y) {
  VecD sum = VecD::Zero(X.cols());
  for (Index i = 0; i < X.rows(); ++i) sum += X.row(i).transpose().cast<double>() * static_cast<double>(signed_label(y(i)));
  return sum / static_cast<double>(X.rows());
}

// Error of the bias-free classifier sign(w·x) on (X, y).
double error(const Mat& X, const IVec& y, double w1, double w2) {
  double wrong = 0;
  for (Index i = 0; i < X.rows(); ++i) {
    const double f = w1 * X(i, 0) + w2 * X(i, 1);
    wrong += (f > 0) != (y(i) == 1) ? 1 : 0;
  }
  return wrong / static_cast<double>(X.rows());
}

}  // namespace

TEST_CASE("dg-theory-model: invariant means 1/2, environmental means gamma in-domain and minus gamma out") {
  auto data = pack().make<Distribution>("dg-theory-model", {{"r", std::int64_t(40)}, {"d", std::int64_t(120)},
                                                            {"gamma", 0.4}, {"ood", std::int64_t(20000)}});
  Dataset train;
  Rng rng(3);
  data->sample(20000, Split::Train, rng, train);
  const FeatureSet f = data->features();
  const Mat& mask = f.at("invariant");
  REQUIRE(mask.cols() == 120);
  CHECK(mask.sum() == 40);
  IVec ood_y(f.at("ood_labels").cols());
  for (Index i = 0; i < ood_y.size(); ++i) ood_y(i) = static_cast<std::int32_t>(f.at("ood_labels")(0, i));
  const VecD id = label_multiplied_mean(train.X, train.y);
  const VecD ood = label_multiplied_mean(f.at("ood_inputs"), ood_y);
  for (Index j = 0; j < 120; ++j) {
    const bool invariant = mask(0, j) > 0;
    CHECK(id(j) == Approx(invariant ? 0.5 : 0.4).margin(0.02));
    CHECK(ood(j) == Approx(invariant ? 0.5 : -0.4).margin(0.02));
  }
  CHECK((train.y.array() == 1).cast<double>().mean() == Approx(0.5).margin(0.02));
  CHECK_THROWS_WITH(pack().make<Distribution>("dg-theory-model", {{"r", std::int64_t(10)}, {"d", std::int64_t(10)}}),
                    Catch::Contains("need d > r"));
}

TEST_CASE("dg-toy-2d: err_ood = 7/3 err_id for bias-free classifiers with positive weights (our derivation from Sec. 6.3.1)") {
  auto data = pack().make<Distribution>("dg-toy-2d", {{"ood", std::int64_t(200000)}});
  Dataset id;
  Rng rng(5);
  data->sample(200000, Split::Test, rng, id);
  const FeatureSet f = data->features();
  IVec ood_y(f.at("ood_labels").cols());
  for (Index i = 0; i < ood_y.size(); ++i) ood_y(i) = static_cast<std::int32_t>(f.at("ood_labels")(0, i));
  for (auto [w1, w2] : {std::pair{1.0, 0.5}, std::pair{1.0, 1.0}, std::pair{0.5, 1.0}}) {
    const double ratio = error(f.at("ood_inputs"), ood_y, w1, w2) / error(id.X, id.y, w1, w2);
    CHECK(ratio == Approx(7.0 / 3.0).margin(0.1));
  }
  CHECK(error(id.X, id.y, 1.0, 0.0) == 0);  // x1 alone separates the classes (Sec. 6.3.1)
}

TEST_CASE("feature-weights and linear-features: gradients and hook backpropagation against finite differences") {
  for (const std::string name : {"feature-weights", "linear-features"}) {
    const Index dim = 6;
    auto model = pack().make<Model>(name, name == "feature-weights" ? std::map<std::string, Value>{{"init_scale", 0.3}}
                                                                    : std::map<std::string, Value>{{"width", std::int64_t(3)}},
                                    testing::spec(dim));
    Rng rng(11);
    model->init(rng);
    Dataset d;
    d.resize(16, dim);
    d.classes = 2;
    rng.fill_normal(d.X, 1.0);
    for (Index i = 0; i < 16; ++i) d.y(i) = static_cast<std::int32_t>(i % 2);
    auto loss = std_pack().make<Loss>(name == "feature-weights" ? "logistic" : "cross-entropy", {}, testing::spec(dim));
    const auto check = check_gradient(*model, *loss, Batch::of(d));
    CHECK(check.ok);
    INFO(check.report);

    // The hook is linear in the parameters, so central differences of <G, hook(X)> are exact up to rounding.
    Mat F;
    model->hook("features", d.X, F);
    Mat G(F.rows(), F.cols());
    rng.fill_normal(G, 1.0);
    Vec grad = Vec::Zero(model->trainable_size());
    model->hook_backward("features", d.X, G, grad);
    const double h = kDouble ? 1e-6 : 1e-2;
    double worst = 0;
    for (Index j = 0; j < model->trainable_size(); ++j) {
      const Scalar keep = model->parameters()(j);
      model->parameters()(j) = static_cast<Scalar>(keep + h);
      model->hook("features", d.X, F);
      const double up = (G.array() * F.array()).cast<double>().sum();
      model->parameters()(j) = static_cast<Scalar>(keep - h);
      model->hook("features", d.X, F);
      const double down = (G.array() * F.array()).cast<double>().sum();
      model->parameters()(j) = keep;
      worst = std::max(worst, std::abs((up - down) / (2 * h) - static_cast<double>(grad(j))));
    }
    CHECK(worst < (kDouble ? 1e-6 : 1e-2) * (1 + static_cast<double>(grad.cwiseAbs().maxCoeff())));
    CHECK_THROWS_WITH(model->hook("hidden", d.X, F), Catch::Contains("features"));
  }
}

TEST_CASE("iht-rank: a gradient step, then only the budget largest magnitudes survive") {
  auto iht = pack().make<Optimizer>("iht-rank", {{"lr", 1.0}, {"budget", std::int64_t(2)}});
  iht->reset(5);
  Vec theta = Vec::Zero(5);
  Vec grad(5);
  grad << -0.1, 0.5, -0.3, 0.2, 0.5;
  iht->step(theta, grad, 0);
  Vec expected(5);
  expected << 0, -0.5, 0, 0, -0.5;
  CHECK((theta - expected).cwiseAbs().maxCoeff() < 1e-7);
  CHECK_THROWS_WITH(iht->reset(1), Catch::Contains("exceeds the model's 1 trainable parameters"));
}

TEST_CASE("feature-support and ood-accuracy on constructed weights") {
  auto data = pack().make<Distribution>("dg-theory-model", {{"r", std::int64_t(40)}, {"d", std::int64_t(120)},
                                                            {"gamma", 0.45}, {"ood", std::int64_t(2000)}});
  const FeatureSet f = data->features();
  auto model = pack().make<Model>("feature-weights", {}, testing::spec(120));
  model->block("w").row(0) = f.at("invariant").row(0);  // weight 1 on R only: ERM-rank's optimum (Lemma 6.2)
  Dataset train, test;
  Rng rng(2);
  data->sample(100, Split::Train, rng, train);
  data->sample(2000, Split::Test, rng, test);
  auto loss = std_pack().make<Loss>("logistic", {}, testing::spec(120));
  std::vector<NamedAttack> none;
  ProbeInput in{*model, *loss, train, test, f, none, 0};
  Measurements support, accuracy;
  pack().make<Probe>("feature-support", {})->measure(in, support);
  pack().make<Probe>("ood-accuracy", {})->measure(in, accuracy);
  std::map<std::string, double> m;
  for (const auto& [k, v] : support.scalars()) m[k] = v;
  for (const auto& [k, v] : accuracy.scalars()) m[k] = v;
  CHECK(m["alpha"] == 1);
  CHECK(m["beta"] == 0);
  CHECK(m["support_in_invariant"] == 1);
  CHECK(m["nonzero_invariant"] == 40);
  CHECK(m["id"] == 1);
  CHECK(m["ood"] == 1);
  model->block("w").setConstant(1);  // equal weights: the 80 environmental features outvote the 40 invariant OOD
  Measurements flipped;
  pack().make<Probe>("ood-accuracy", {})->measure(in, flipped);
  CHECK(flipped.scalars()[1].second < 0.05);
}
