// The exact J_MM in activation space equals the naive computation over all N² explicit midpoints
// (value and gradient), for the patch CNN and for the linear model of Section 3.
#include "mm_harness.hpp"

#include "../src/beta_quadrature.hpp"

#include <featurelab/gradient_check.hpp>
#include <featurelab/threads.hpp>

#include <catch2/catch.hpp>

#include <memory>

using namespace featurelab;
using mm_test::pack;
using mm_test::std_pack;
using mm_test::Overrides;

namespace {

// All N² ordered mixes λx_i + (1−λ)x_j, for each λ in lambdas, with soft targets
// λ e_{y_i} + (1−λ) e_{y_j}: the definition, literally (equal weights per λ).
Dataset all_mixes(const Dataset& d, const std::vector<Scalar>& lambdas) {
  const Index n = d.size(), q = static_cast<Index>(lambdas.size());
  Dataset out;
  out.resize(q * n * n, d.dim(), d.classes);
  out.classes = d.classes;
  out.T.setZero();
  for (Index l = 0; l < q; ++l) {
    const Scalar lambda = lambdas[static_cast<std::size_t>(l)];
    for (Index i = 0; i < n; ++i) {
      for (Index j = 0; j < n; ++j) {
        const Index r = (l * n + i) * n + j;
        out.X.row(r) = lambda * d.X.row(i) + (1 - lambda) * d.X.row(j);
        out.y(r) = d.y(i);
        out.T(r, d.y(i)) += lambda;
        out.T(r, d.y(j)) += 1 - lambda;
      }
    }
  }
  return out;
}

void compare_with_naive(Model& model, const Dataset& data, const std::string& loss = "midpoint-mixup-exact",
                        const Overrides& params = {}, const std::vector<Scalar>& lambdas = {Scalar(0.5)}) {
  auto exact = pack().make<Loss>(loss, params, {});
  auto ce = std_pack().make<Loss>("cross-entropy", {}, {});
  const Dataset pairs = all_mixes(data, lambdas);
  Vec g_exact(model.trainable_size()), g_naive(model.trainable_size());
  const Scalar v_exact = exact->evaluate_with_gradient(model, Batch::of(data), g_exact);
  const Scalar v_naive = ce->evaluate_with_gradient(model, Batch::of(pairs), g_naive);
  CHECK(v_exact == Approx(v_naive).epsilon(1e-4));
  CHECK(exact->evaluate(model, Batch::of(data)) == Approx(v_naive).epsilon(1e-4));
  INFO("exact " << g_exact.head(6).transpose() << "\nnaive " << g_naive.head(6).transpose());
  CHECK((g_exact - g_naive).norm() <= 1e-4 * std::max(Scalar(1), g_naive.norm()));
  const auto r = check_gradient(model, *exact, Batch::of(data));
  INFO(r.report);
  CHECK(r.ok);
  // The parallel loop over anchors (featurelab/threads.hpp) changes no bit of the result.
  for (int threads : {2, 3}) {
    set_job_threads(threads);
    Vec g_threads(model.trainable_size());
    const Scalar v_threads = exact->evaluate_with_gradient(model, Batch::of(data), g_threads);
    set_job_threads(1);
    INFO(threads << " threads");
    CHECK(v_threads == v_exact);
    CHECK(g_threads == g_exact);
  }
}

}  // namespace

TEST_CASE("exact midpoint mixup equals the N^2-midpoint cross-entropy: patch CNN") {
  DataSpec s;
  s.dim = 4 * 6;
  s.classes = 3;
  s.shape.dims = {4, 6};
  auto model = pack().make<Model>("patch-two-layer", {{"neurons", std::int64_t(2)}, {"alpha", 3.0}, {"rho", 0.3},
                                                      {"init_std", 0.5}}, s);
  Rng rng(11);
  model->init(rng);
  Dataset data;
  data.X.resize(7, 24);
  rng.fill_normal(data.X);
  data.y.resize(7);
  data.y << 0, 1, 2, 2, 1, 0, 1;
  data.classes = 3;
  compare_with_naive(*model, data);
}

TEST_CASE("exact midpoint mixup equals the N^2-midpoint cross-entropy: linear model (Section 3)") {
  const DataSpec s = testing::spec(8, 4);
  auto model = std_pack().make<Model>("linear", {{"bias", false}, {"init_scale", 0.3}}, s);
  Rng rng(12);
  model->init(rng);
  Dataset data;
  data.X.resize(9, 8);
  rng.fill_normal(data.X);
  data.y.resize(9);
  data.y << 0, 1, 2, 3, 3, 2, 1, 0, 0;
  data.classes = 4;
  compare_with_naive(*model, data);
}

TEST_CASE("exact midpoint mixup refuses models without affine pre-activations") {
  const DataSpec s = testing::spec(3, 3);
  auto model = std_pack().make<Model>("two-layer", {{"second_layer", std::string("per-class")}, {"width", std::int64_t(6)}}, s);
  auto exact = pack().make<Loss>("midpoint-mixup-exact", {}, {});
  CHECK_THROWS_WITH(exact->check_model(*model, s), Catch::Contains("affine in x"));
  auto beta = pack().make<Loss>("mixup-exact", {}, {});
  CHECK_THROWS_WITH(beta->check_model(*model, s), Catch::Contains("affine in x"));
}

TEST_CASE("exact Beta(1,1) mixup equals the explicit mixes at the two Gauss-Legendre nodes") {
  // Two nodes for the uniform law are 1/2 ± 1/(2√3) with equal weights: the explicit 2N² mixes
  // averaged by cross-entropy are the same loss.
  DataSpec s;
  s.dim = 4 * 6;
  s.classes = 3;
  s.shape.dims = {4, 6};
  auto model = pack().make<Model>("patch-two-layer", {{"neurons", std::int64_t(2)}, {"alpha", 3.0}, {"rho", 0.3},
                                                      {"init_std", 0.5}}, s);
  Rng rng(13);
  model->init(rng);
  Dataset data;
  data.X.resize(6, 24);
  rng.fill_normal(data.X);
  data.y.resize(6);
  data.y << 0, 1, 2, 2, 1, 0;
  data.classes = 3;
  const Scalar h = static_cast<Scalar>(0.5 / std::sqrt(3.0));
  compare_with_naive(*model, data, "mixup-exact", {{"alpha", 1.0}, {"quadrature_nodes", std::int64_t(2)}},
                     {Scalar(0.5) - h, Scalar(0.5) + h});
}

TEST_CASE("Beta(a, a) quadrature integrates the Beta moments exactly") {
  for (double a : {0.2, 0.5, 1.0, 3.0}) {
    for (int points : {1, 2, 5, 40}) {
      const auto q = featurelab::midpoint_mixup_pack::beta_quadrature(a, points);
      CHECK(q.weights.sum() == Approx(1).epsilon(1e-12));
      CHECK(q.nodes.minCoeff() > 0);
      CHECK(q.nodes.maxCoeff() < 1);
      // E[λ^r] = Π_{i<r} (a + i)/(2a + i), exact while r < 2·points.
      double moment = 1;
      for (int r = 1; r < 2 * points && r <= 12; ++r) {
        moment *= (a + r - 1) / (2 * a + r - 1);
        INFO("a = " << a << ", points = " << points << ", r = " << r);
        CHECK((q.weights.array() * q.nodes.array().pow(r)).sum() == Approx(moment).epsilon(1e-10));
      }
    }
  }
  // Beta(1,1): E[H(λ)] = 1/2, the infimum of the uniform mixup loss (Eq. C.2).
  const auto q = featurelab::midpoint_mixup_pack::beta_quadrature(1.0, 200);
  const Eigen::ArrayXd l = q.nodes.array();
  CHECK((q.weights.array() * (-l * l.log() - (1 - l) * (1 - l).log())).sum() == Approx(0.5).epsilon(1e-6));
  CHECK_THROWS_WITH(featurelab::midpoint_mixup_pack::beta_quadrature(0.0, 4), Catch::Contains("a > 0"));
  CHECK_THROWS_WITH(featurelab::midpoint_mixup_pack::beta_quadrature(1.0, 0), Catch::Contains("quadrature_nodes"));
}

TEST_CASE("Prop. 3.3: uniform mixup keeps a gap above its infimum at w_y = c(v_{y,1} + v_{y,2}), midpoint does not") {
  // Two points of classes 0 and 1: the N² = 4 pairs are two self-pairs, whose loss is
  // s(c) = log(1 + (k−1)e^{−c}) for any λ, and two cross pairs, whose loss is the per-pair ℓ(c) of
  // Prop. 3.3's construction. So ℓ(c) = 2·J − s(c), scanned over c on a log grid of [0.05, 1e4].
  // Expected min_c ℓ(c) (our own reference computation, 4000-node midpoint rule): 0.5052, 0.5761,
  // 0.7280, 1.0010 for k = 2, 3, 10, 100, against the infimum E[H(λ)] = 1/2; the gap thresholds are
  // those values with slack.
  const std::vector<std::pair<int, double>> cases = {{2, 0.5052}, {3, 0.5761}, {10, 0.7280}, {100, 1.0010}};
  for (const auto& [k, expected_min] : cases) {
    auto dist = pack().make<Distribution>("simple-multiview", {{"classes", std::int64_t(k)}}, {});
    const Mat views = dist->features().at("views");
    const DataSpec s = testing::spec(views.cols(), k);
    auto model = std_pack().make<Model>("linear", {{"bias", false}, {"outputs", std::int64_t(k)}}, s);
    Dataset data;
    data.X.resize(2, views.cols());
    data.X.row(0) = Scalar(0.3) * views.row(0) + Scalar(0.7) * views.row(1);
    data.X.row(1) = Scalar(0.6) * views.row(2) + Scalar(0.4) * views.row(3);
    data.y.resize(2);
    data.y << 0, 1;
    data.classes = k;
    auto uniform = pack().make<Loss>("mixup-exact", {{"alpha", 1.0}, {"quadrature_nodes", std::int64_t(200)}}, {});
    auto midpoint = pack().make<Loss>("midpoint-mixup-exact", {}, {});
    double min_uniform = 1e300, min_midpoint = 1e300;
    for (int g = 0; g < 120; ++g) {
      const double c = 0.05 * std::pow(1e4 / 0.05, g / 119.0);
      MatMap W = model->block("W");
      for (Index y = 0; y < k; ++y) W.row(y) = static_cast<Scalar>(c) * (views.row(2 * y) + views.row(2 * y + 1));
      const double self = std::log1p((k - 1) * std::exp(-c));
      min_uniform = std::min(min_uniform, 2 * double(uniform->evaluate(*model, Batch::of(data))) - self);
      min_midpoint = std::min(min_midpoint, 2 * double(midpoint->evaluate(*model, Batch::of(data))) - self);
    }
    INFO("k = " << k << ": min_c l(c) uniform " << min_uniform << ", midpoint " << min_midpoint);
    CHECK(min_uniform == Approx(expected_min).margin(2e-3));
    CHECK(min_midpoint == Approx(std::log(2.0)).margin(1e-3));  // Lemma 3.2: midpoint reaches its infimum
    const double gap = min_uniform - 0.5;
    if (k == 2) CHECK(gap > 0);
    if (k == 3) CHECK(gap >= 0.07);
    if (k == 10) CHECK(gap >= 0.2);
    if (k == 100) CHECK(gap >= 0.45);
  }
}

// Lemma 3.2's setting: 200 points of Def. 3.1's data with k = 10, Section 3's linear model and the exact
// J_MM; J_MM at w_y = c(lead·v_{y,1} + v_{y,2}), and the share Σ_y π_y² of same-class pairs.
struct Lemma32Setting {
  static constexpr int k = 10;
  std::shared_ptr<Distribution> dist = pack().make<Distribution>("simple-multiview", {{"classes", std::int64_t(k)}}, {});
  Dataset data;
  Mat views;
  std::shared_ptr<Model> model;
  std::shared_ptr<Loss> exact = pack().make<Loss>("midpoint-mixup-exact", {}, {});
  double same = 0;
  Lemma32Setting() {
    Rng rng(3);
    dist->sample(200, Split::Train, rng, data);
    views = dist->features().at("views");
    model = std_pack().make<Model>("linear", {{"bias", false}}, testing::spec(views.cols(), k));
    VecD counts = VecD::Zero(k);
    for (Index i = 0; i < data.size(); ++i) counts(data.y(i)) += 1;
    const double n = static_cast<double>(data.size());
    same = counts.squaredNorm() / (n * n);
  }
  double loss_at(double c, double lead) {
    MatMap W = model->block("W");
    for (Index y = 0; y < k; ++y) W.row(y) = static_cast<Scalar>(c) * (lead * views.row(2 * y) + views.row(2 * y + 1));
    return static_cast<double>(exact->evaluate(*model, Batch::of(data)));
  }
};

TEST_CASE("Lemma 3.2: at w_y = c(v_{y,1} + v_{y,2}) J_MM has a closed form that falls to its infimum") {
  // Same-class midpoints score c on their class, cross-class ones c/2 on both classes, so
  //   J_MM = Σ_{i,j} [same ? log(1 + (k−1)e^{−c}) : log(2 + (k−2)e^{−c/2})] / N²,
  // whose limit is log 2 · (1 − Σ_y π_y²) = inf J_MM (Lemma 3.2; Eq. C.2 with the cross-class
  // fraction 1 − Σ_y π_y², which the paper's Eq. C.2 leaves out).
  Lemma32Setting lemma;
  const int k = Lemma32Setting::k;
  const double same = lemma.same;
  for (double c : {1.0, 10.0, 50.0}) {
    const double expected = same * std::log1p((k - 1) * std::exp(-c)) + (1 - same) * std::log(2 + (k - 2) * std::exp(-c / 2));
    CHECK(lemma.loss_at(c, 1.0) == Approx(expected).epsilon(1e-4));
  }
  // c = 10: the cross-class pair loss at k = 10 (0.71974 in our own reference computation).
  CHECK(std::log(2 + 8 * std::exp(-5.0)) == Approx(0.71974).epsilon(1e-5));
  CHECK(lemma.loss_at(50.0, 1.0) == Approx(std::log(2.0) * (1 - same)).epsilon(1e-4));
}

TEST_CASE("Lemma 3.2, necessity: unequal correlations w_y = c(2v_{y,1} + v_{y,2}) stay above inf J_MM at every scale") {
  // A cross-class midpoint of x_i = β_i v_{y,1} + (1 − β_i) v_{y,2} and x_j scores c(1 + β_i)/2 and
  // c(1 + β_j)/2 on the two classes: unless β_i = β_j the soft target (½, ½) is missed by a margin that
  // grows with c, so J_MM stays above its infimum log 2 · (1 − Σπ²) and rises with the scale, where the
  // equal model of the sufficiency half falls to it.
  Lemma32Setting lemma;
  const double infimum = std::log(2.0) * (1 - lemma.same);
  auto loss_at = [&](double c, double lead) { return lemma.loss_at(c, lead); };
  double previous = 0;
  for (double c : {2.0, 10.0, 50.0, 200.0}) {
    const double unequal = loss_at(c, 2.0), equal = loss_at(c, 1.0);
    INFO("c = " << c << ": unequal " << unequal << ", equal " << equal << ", infimum " << infimum);
    CHECK(unequal >= infimum + 0.05);
    if (c >= 50) {  // it diverges where the equal model converges
      CHECK(unequal > previous);
      CHECK(unequal > equal + 0.5);
    }
    previous = unequal;
  }
  CHECK(loss_at(200.0, 1.0) == Approx(infimum).epsilon(1e-4));
}
