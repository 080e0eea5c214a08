// Chapter 7's components on their own: the multi-task data's groups and moments, the transformation, the
// contrastive losses against finite differences and against the closed-form gradient, Thm 7.1's PCA identity by
// Monte Carlo, the exact projection onto {‖W‖₂ ≤ 1, ‖W‖_F ≤ √r} (and Dykstra's onto its intersection with a
// ball), the ideal representations of Prop. 7.3 / 7.4 through the feature-weights probe, the ridge probe's trade-off
// (and its absence without regularisation), App. F.1.1's XOR counterexample, and refusals.
#include "../src/ch7-contrastive-tradeoff/norm_projection.hpp"

#include <featurelab/augment.hpp>
#include <featurelab/error.hpp>
#include <featurelab/gradient_check.hpp>
#include <featurelab/linalg.hpp>
#include <featurelab/probe.hpp>
#include <featurelab/testing.hpp>

#include "rt_harness.hpp"

#include <catch2/catch.hpp>

#include <Eigen/QR>  // completeOrthogonalDecomposition in the linear probe

#include <cmath>
#include <map>
#include <vector>

using namespace featurelab;
using rt_test::pack;
using rt_test::metric;
using featurelab::representation_theory_pack::NormProjection;

namespace {

std::shared_ptr<Distribution> multitask(std::map<std::string, Value> overrides = {}, std::uint64_t seed = 1) {
  return pack().make<Distribution>("multitask-linear", overrides, DataSpec{}, seed);
}

// The components of a job over one distribution: its features outlive every component made from them.
struct Setup {
  std::shared_ptr<Distribution> data;
  FeatureSet features;
  DataSpec spec;
  explicit Setup(std::map<std::string, Value> overrides = {}) : data(multitask(std::move(overrides))) {
    features = data->features();
    spec = data->spec();
  }
  template <class T>
  std::shared_ptr<T> make(const std::string& name, std::map<std::string, Value> overrides = {}, std::uint64_t seed = 1) {
    return pack().make<T>(name, overrides, spec, seed, &features);
  }
  // The hidden representation of a dataset: z = X·atomsᵀ (M orthonormal).
  MatD hidden(const Dataset& d) const { return d.X.cast<double>() * features.at("dictionary").cast<double>().transpose(); }
  std::vector<int> groups() const {
    std::vector<int> g;
    for (Index j = 0; j < features.at("groups").cols(); ++j) g.push_back(static_cast<int>(features.at("groups")(0, j)));
    return g;
  }
};

struct NoAttacks {
  std::vector<NamedAttack> attacks;
};

Measurements probe(Probe& p, Model& model, Loss& loss, const FeatureSet& features, Index step = 0) {
  static const Dataset empty;
  static const NoAttacks none;
  ProbeInput in{model, loss, empty, empty, features, none.attacks, step};
  Measurements out;
  p.measure(in, out);
  return out;
}

}  // namespace

TEST_CASE("multitask-linear: groups S, P_t, U, an orthonormal dictionary and each task's moments", "[ch7]") {
  Setup s;  // s = 2, r = 4, T = 3, |U| = 4: d = 12
  const std::vector<int> g = s.groups();
  REQUIRE(g.size() == 12);
  CHECK(std::count(g.begin(), g.end(), 0) == 2);
  for (int t = 1; t <= 3; ++t) CHECK(std::count(g.begin(), g.end(), t) == 2);
  CHECK(std::count(g.begin(), g.end(), -1) == 4);
  const MatD A = s.features.at("dictionary").cast<double>();
  const double tol = kDouble ? 1e-12 : 1e-5;
  CHECK((A * A.transpose() - MatD::Identity(12, 12)).cwiseAbs().maxCoeff() < tol);
  CHECK_FALSE(A.isApprox(MatD::Identity(12, 12)));  // random-orthonormal by default
  // u_t* is a unit vector on R_t = S ∪ P_t.
  const MatD U = s.features.at("labels").cast<double>();
  for (Index t = 0; t < 3; ++t) {
    CHECK(U.row(t).norm() == Approx(1).epsilon(1e-6));
    for (Index j = 0; j < 12; ++j) {
      if (g[static_cast<std::size_t>(j)] != 0 && g[static_cast<std::size_t>(j)] != t + 1) CHECK(U(t, j) == 0);
    }
  }

  Rng rng(5);
  Dataset d;
  s.data->sample(30000, Split::Train, rng, d);
  const MatD Z = s.hidden(d);
  const VecD& task = d.meta.at("task");
  for (Index t = 0; t < 3; ++t) {
    // Even mixture; in task t: S and P_t unit variance, the other P exactly 0, U unit variance.
    std::vector<Index> rows;
    for (Index i = 0; i < d.size(); ++i) {
      if (task(i) == static_cast<double>(t)) rows.push_back(i);
    }
    CHECK(static_cast<double>(rows.size()) / 30000.0 == Approx(1.0 / 3).margin(0.015));
    for (Index j = 0; j < 12; ++j) {
      double second = 0;
      for (Index i : rows) second += Z(i, j) * Z(i, j);
      second /= static_cast<double>(rows.size());
      const int gj = g[static_cast<std::size_t>(j)];
      if (gj > 0 && gj != t + 1) {
        CHECK(second < 1e-8);
      } else {
        CHECK(second == Approx(1).margin(0.06));
      }
    }
    for (Index i : rows) CHECK(d.y(i) == t);
  }
  // target = u_tᵀ z, in T and in the meta column.
  for (Index i = 0; i < 200; ++i) {
    const double expected = U.row(static_cast<Index>(task(i))).dot(Z.row(i));
    CHECK(d.meta.at("target")(i) == Approx(expected).margin(1e-4));
    CHECK(static_cast<double>(d.T(i, 0)) == Approx(expected).margin(1e-4));
  }
}

TEST_CASE("multitask-linear: task subsets, weights, balanced labels, the identity dictionary", "[ch7]") {
  Setup one({{"tasks", std::vector<std::int64_t>{1}}});
  CHECK(one.features.at("mixture")(0, 1) == 1);
  Rng rng(2);
  Dataset d;
  one.data->sample(500, Split::Train, rng, d);
  CHECK((d.meta.at("task").array() == 1).all());

  Setup weighted({{"tasks", std::vector<std::int64_t>{0, 2}}, {"weights", std::vector<double>{3, 1}}});
  CHECK(weighted.features.at("mixture")(0, 0) == Approx(0.75));
  CHECK(weighted.features.at("mixture")(0, 1) == 0);
  weighted.data->sample(20000, Split::Train, rng, d);
  CHECK((d.meta.at("task").array() == 0).cast<double>().mean() == Approx(0.75).margin(0.015));
  CHECK((d.meta.at("task").array() == 1).count() == 0);

  Setup balanced({{"labels", std::string("balanced")}, {"dictionary", std::string("identity")}});
  CHECK(balanced.features.at("dictionary").cast<double>().isApprox(MatD::Identity(12, 12)));
  const MatD U = balanced.features.at("labels").cast<double>();
  for (Index t = 0; t < 3; ++t) {
    CHECK(U.row(t).head(2).squaredNorm() == Approx(0.5).epsilon(1e-5));  // v_{t,1} = v_{t,2} = 1/2
    CHECK(U.row(t).segment(2 + 2 * t, 2).squaredNorm() == Approx(0.5).epsilon(1e-5));
  }
}

TEST_CASE("multitask-linear: bad parameters are refused with the fix", "[ch7]") {
  CHECK_THROWS_WITH(multitask({{"r", std::int64_t(2)}}), Catch::Contains("must exceed s"));
  CHECK_THROWS_WITH(multitask({{"tasks", std::vector<std::int64_t>{3}}}), Catch::Contains("0-based"));
  CHECK_THROWS_WITH(multitask({{"tasks", std::vector<std::int64_t>{0, 1}}, {"weights", std::vector<double>{1}}}),
                    Catch::Contains("one weight per task"));
  CHECK_THROWS_WITH(multitask({{"tasks", std::vector<std::int64_t>{1, 1}}}), Catch::Contains("twice"));
}

TEST_CASE("resample-spurious: the pair shares z_R, draws z_U afresh, and carries the targets", "[ch7]") {
  Setup s;
  auto augment = s.make<Augment>("resample-spurious", {{"positives", std::int64_t(3000)}});
  Rng rng(9);
  Dataset raw, views;
  s.data->sample(4000, Split::Train, rng, raw);
  augment->apply(Batch::of(raw), views, rng);
  REQUIRE(views.size() == 7000);
  REQUIRE(views.T.cols() == 2);
  const MatD Z = s.hidden(views);
  const std::vector<int> g = s.groups();
  for (Index j = 0; j < 12; ++j) {
    const VecD a = Z.col(j).head(3000), p = Z.col(j).segment(3000, 3000);
    if (g[static_cast<std::size_t>(j)] >= 0) {
      CHECK((a - p).cwiseAbs().maxCoeff() < (kDouble ? 1e-10 : 1e-4));
    } else {
      CHECK(p.squaredNorm() / 3000 == Approx(1).margin(0.08));  // fresh N(0, 1)
      CHECK(std::abs(a.dot(p)) / 3000 < 0.08);                   // independent of the anchor's
    }
  }
  for (Index i = 0; i < 3000; ++i) {
    CHECK(views.T(i, 0) == 0);
    CHECK(views.T(3000 + i, 0) == 1);
    CHECK(views.T(i, 1) == raw.T(i, 0));
    CHECK(views.T(3000 + i, 1) == raw.T(i, 0));
  }
  CHECK(views.T(6500, 0) == 2);
  CHECK(views.X.row(6500) == raw.X.row(3500));
  auto too_many = s.make<Augment>("resample-spurious", {{"positives", std::int64_t(5000)}});
  CHECK_THROWS_WITH(too_many->apply(Batch::of(raw), views, rng), Catch::Contains("batch to K + N"));
}

TEST_CASE("contrastive-inner-product: the gradient matches finite differences for every negative and both losses", "[ch7]") {
  Setup s;
  auto model = s.make<Model>("linear-representation", {{"init_std", 0.4}});
  Rng rng(4);
  model->init(rng);
  Dataset raw, views;
  s.data->sample(48, Split::Train, rng, raw);
  for (const char* negatives : {"expected", "batch-mean", "single"}) {
    for (const char* ell : {"logistic", "linear"}) {
      const std::int64_t K = std::string(negatives) == "expected" ? 0 : 24;
      auto augment = s.make<Augment>("resample-spurious", {{"positives", K}});
      augment->apply(Batch::of(raw), views, rng);
      auto loss = s.make<Loss>("contrastive-inner-product", {{"negatives", std::string(negatives)}, {"ell", std::string(ell)}});
      INFO(negatives << " / " << ell);
      const GradientCheckResult r = check_gradient(*model, *loss, Batch::of(views));
      CHECK(r.ok);
      INFO(r.report);
    }
  }
}

TEST_CASE("contrastive-inner-product: the expected negative is E[ℓ(xᵀWᵀWx⁺)] with gradient ℓ′·W(xx⁺ᵀ + x⁺xᵀ)", "[ch7]") {
  Setup s;
  auto model = s.make<Model>("linear-representation", {{"init_std", 0.3}});
  Rng rng(6);
  model->init(rng);
  auto augment = s.make<Augment>("resample-spurious");
  auto loss = s.make<Loss>("contrastive-inner-product");
  Dataset raw, views;
  s.data->sample(64, Split::Train, rng, raw);
  augment->apply(Batch::of(raw), views, rng);
  const MatD W = model->block("W").cast<double>();
  const MatD X = views.X.topRows(64).cast<double>(), Xp = views.X.middleRows(64, 64).cast<double>();
  double value = 0;
  MatD grad = MatD::Zero(W.rows(), W.cols());
  for (Index i = 0; i < 64; ++i) {  // the reference, sample by sample
    const double t = (W * X.row(i).transpose()).dot(W * Xp.row(i).transpose());
    value += std::log1p(std::exp(-t)) / 64;
    const double dl = -1 / (1 + std::exp(t));
    grad += dl / 64 * W * (X.row(i).transpose() * Xp.row(i) + Xp.row(i).transpose() * X.row(i));
  }
  Vec g(model->trainable_size());
  const double got = loss->evaluate_with_gradient(*model, Batch::of(views), g);
  CHECK(got == Approx(value).epsilon(kDouble ? 1e-10 : 1e-5));
  const MatD gW = Eigen::Map<const Mat>(g.data(), W.rows(), W.cols()).cast<double>();
  CHECK((gW - grad).cwiseAbs().maxCoeff() < (kDouble ? 1e-10 : 1e-5));
}

TEST_CASE("contrastive-regularized: prediction + λ·contrastive, gradient with the head, and a model without head refused", "[ch7]") {
  Setup s;
  auto model = s.make<Model>("linear-representation", {{"init_std", 0.3}, {"head", true}});
  Rng rng(8);
  model->init(rng);
  model->block("u").setConstant(Scalar(0.2));
  auto augment = s.make<Augment>("resample-spurious", {{"positives", std::int64_t(20)}});
  Dataset raw, views;
  s.data->sample(40, Split::Train, rng, raw);
  augment->apply(Batch::of(raw), views, rng);
  auto loss = s.make<Loss>("contrastive-regularized", {{"lambda", 0.5}, {"negatives", std::string("batch-mean")}});
  loss->check_model(*model, s.spec);
  const GradientCheckResult r = check_gradient(*model, *loss, Batch::of(views));
  CHECK(r.ok);
  INFO(r.report);
  // λ = 0 leaves the prediction loss ½ mean (uᵀφ(x) − y)² alone.
  auto plain = s.make<Loss>("contrastive-regularized", {{"lambda", 0.0}});
  Mat F(views.size(), model->outputs());
  model->forward(views.X, F);
  const Vec pred = F.topRows(20) * model->block("u").row(0).transpose();
  const double expected = 0.5 * (pred - views.T.col(1).head(20)).squaredNorm() / 20;
  CHECK(plain->evaluate(*model, Batch::of(views)) == Approx(expected).epsilon(1e-5));

  auto headless = s.make<Model>("linear-representation");
  CHECK_THROWS_WITH(loss->check_model(*headless, s.spec), Catch::Contains("head = true"));
}

TEST_CASE("Thm 7.1: with ℓ(t) = −t the contrastive loss is minus the PCA objective on φ_{z_R}", "[ch7]") {
  Setup s;  // the even mixture of 3 tasks
  auto model = s.make<Model>("linear-representation", {{"init_std", 0.5}});
  Rng rng(12);
  model->init(rng);
  auto augment = s.make<Augment>("resample-spurious", {{"positives", std::int64_t(5000)}});
  auto loss = s.make<Loss>("contrastive-inner-product", {{"ell", std::string("linear")}, {"negatives", std::string("single")}});
  // −E‖φ_{z_R} − φ_0‖² = −Σ_t w_t Σ_{j∈R_t} σ_j² ‖WMe_j‖²  (φ_0 = 0, φ_{z_R} = WM[z_R; 0]).
  const MatD WM = model->block("W").cast<double>() * s.features.at("dictionary").cast<double>().transpose();
  const VecD norms = WM.colwise().squaredNorm().transpose();
  const std::vector<int> g = s.groups();
  double pca = 0;
  for (int t = 0; t < 3; ++t) {
    for (Index j = 0; j < 12; ++j) {
      const int gj = g[static_cast<std::size_t>(j)];
      if (gj == 0 || gj == t + 1) pca += norms(j) / 3;
    }
  }
  Dataset raw, views;
  std::vector<double> batches;
  for (int b = 0; b < 40; ++b) {
    s.data->sample(10000, Split::Train, rng, raw);
    augment->apply(Batch::of(raw), views, rng);
    batches.push_back(loss->evaluate(*model, Batch::of(views)));
  }
  double mean = 0, var = 0;
  for (double v : batches) mean += v / 40;
  for (double v : batches) var += (v - mean) * (v - mean) / 39;
  const double se = std::sqrt(var / 40);
  INFO("MC " << mean << " ± " << se << ", PCA objective " << -pca);
  CHECK(std::abs(mean + pca) < 4 * se);
  CHECK(se < 0.05 * pca);  // the check has power: the two terms are far apart relative to the error
}

TEST_CASE("projection onto {‖W‖₂ ≤ 1, ‖W‖_F ≤ √r}: feasible, idempotent, and the exact Euclidean projection", "[ch7]") {
  Rng rng(21);
  const double r = 3;
  NormProjection projection(1.0, std::sqrt(r));
  for (int trial = 0; trial < 20; ++trial) {
    MatD W(5, 7);
    for (Index i = 0; i < W.size(); ++i) W(i) = rng.normal(0, trial % 2 ? 0.3 : 1.5);
    MatD P = W;
    projection.project(P);
    CHECK(singular_values(P).maxCoeff() <= 1 + 1e-9);
    CHECK(P.squaredNorm() <= r + 1e-9);
    MatD again = P;
    projection.project(again);
    CHECK((again - P).norm() < 1e-10);
    // The reference: the SVD of W and σ′ = min(1, σ/τ) with τ from a fine scan (independent of the bisection).
    ThinSvd ref;
    thin_svd(W, ref);
    const VecD sigma = ref.values;
    double tau = 1;
    while ((sigma.array() / tau).min(1.0).square().sum() > r) tau *= 1 + 1e-7;
    const VecD clipped = (sigma.array() / tau).min(1.0).matrix();
    const MatD expected = ref.U * clipped.asDiagonal() * ref.V.transpose();
    CHECK((P - expected).norm() < 1e-5 * std::max(1.0, W.norm()));
    // Exactness: ⟨W − P, Y − P⟩ ≤ 0 for every feasible Y (the projection's variational inequality), and no feasible
    // Y is closer.
    for (int k = 0; k < 300; ++k) {
      MatD Y(5, 7);
      for (Index i = 0; i < Y.size(); ++i) Y(i) = rng.normal(0, 1.0);
      projection.project(Y);
      Y *= rng.uniform(0.2, 1.0);
      CHECK(((W - P).cwiseProduct(Y - P)).sum() <= 1e-9);
      CHECK((W - P).norm() <= (W - Y).norm() + 1e-12);
    }
  }
  // The σ projection alone: spectral only, Frobenius only.
  Eigen::VectorXd sigma(3);
  sigma << 3, 0.5, 0.2;
  NormProjection::project_singular_values(sigma, 1.0, 0.0);
  CHECK(sigma(0) == 1);
  CHECK(sigma(1) == 0.5);
  sigma << 3, 4, 0;
  NormProjection::project_singular_values(sigma, 0.0, 1.0);
  CHECK(sigma(0) == Approx(0.6));
  CHECK(sigma(1) == Approx(0.8));
}

TEST_CASE("projection onto {‖W‖₂ ≤ 1} ∩ {‖W − W₀‖_F ≤ γ}: Dykstra reaches the exact projection (F.105)", "[ch7]") {
  Rng rng(31);
  MatD W0(4, 6);
  for (Index i = 0; i < W0.size(); ++i) W0(i) = rng.normal(0, 0.5);
  W0 *= 0.95 / singular_values(W0).maxCoeff();  // a centre near the spectral bound
  const double gamma = 0.3;
  NormProjection both(1.0, 0.0);
  both.set_ball(W0, gamma);
  both.set_dykstra(2000, 1e-13);
  const auto feasible = [&](const MatD& Y) {
    return singular_values(Y).maxCoeff() <= 1 + 1e-9 && (Y - W0).norm() <= gamma + 1e-9;
  };
  int both_active = 0;
  for (int trial = 0; trial < 10; ++trial) {
    MatD W = W0;
    for (Index i = 0; i < W.size(); ++i) W(i) += rng.normal(0, 0.6);
    MatD P = W;
    both.project(P);
    CHECK(feasible(P));
    // Both constraints bind in most trials: the answer is neither set's own projection.
    both_active += singular_values(P).maxCoeff() > 1 - 1e-6 && (P - W0).norm() > gamma - 1e-6;
    int tested = 0;
    for (int k = 0; k < 4000 && tested < 200; ++k) {
      MatD Y = W0;
      for (Index i = 0; i < Y.size(); ++i) Y(i) += rng.normal(0, 0.05);
      if (!feasible(Y)) continue;
      ++tested;
      CHECK(((W - P).cwiseProduct(Y - P)).sum() <= 1e-7);
    }
    CHECK(tested > 50);
  }
  CHECK(both_active >= 5);
}

TEST_CASE("linear-representation: the ideal inits are Prop. 7.3 and 7.4, read back by learned-feature-weights", "[ch7]") {
  Setup s;  // s = 2, r = 4, T = 3
  auto loss = s.make<Loss>("contrastive-inner-product");
  auto weights = s.make<Probe>("learned-feature-weights");
  Rng rng(1);
  auto mixture = s.make<Model>("linear-representation", {{"init", std::string("ideal-mixture")}});
  mixture->init(rng);
  Measurements out = probe(*weights, *mixture, *loss, s.features);
  CHECK(metric(out, "S") == Approx(1).epsilon(1e-5));
  for (const char* p : {"P0", "P1", "P2"}) CHECK(metric(out, p) == Approx(1.0 / 3).epsilon(1e-5));  // β = 1/T
  CHECK(metric(out, "U") < 1e-10);
  CHECK(metric(out, "offdiag") < 1e-5);
  CHECK(metric(out, "fro2") == Approx(4).epsilon(1e-5));  // ‖W*‖_F² = r: on the Frobenius bound
  REQUIRE(out.tables().size() == 2);
  CHECK(out.tables()[0].second.values.rows() == 12);

  auto specific = s.make<Model>("linear-representation", {{"init", std::string("ideal-specific")}, {"init_task", std::int64_t(1)}});
  specific->init(rng);
  out = probe(*weights, *specific, *loss, s.features);
  CHECK(metric(out, "S") == Approx(1).epsilon(1e-5));
  CHECK(metric(out, "P1") == Approx(1).epsilon(1e-5));
  CHECK(metric(out, "P0") < 1e-10);
  CHECK(metric(out, "P2") < 1e-10);

  // α = 0.5: β = min(1, (r − αs)/(T(r − s))) = 3/6.
  auto half = s.make<Model>("linear-representation", {{"init", std::string("ideal-mixture")}, {"init_alpha", 0.5}});
  half->init(rng);
  out = probe(*weights, *half, *loss, s.features);
  CHECK(metric(out, "S") == Approx(0.5).epsilon(1e-5));
  CHECK(metric(out, "P2") == Approx(0.5).epsilon(1e-5));

  CHECK_THROWS_WITH(s.make<Model>("linear-representation", {{"init", std::string("ideal-mixture")}, {"k", std::int64_t(4)}}),
                    Catch::Contains("k >= |R|"));
  CHECK_THROWS_WITH(s.make<Model>("linear-representation", {{"init", std::string("ideal-specific")}, {"init_task", std::int64_t(3)}}),
                    Catch::Contains("T = 3"));
}

TEST_CASE("ridge-probe: on the ideal representations the mixture needs more labels, and OLS hides it", "[ch7]") {
  Setup s({{"s", std::int64_t(10)}, {"r", std::int64_t(20)}, {"T", std::int64_t(4)}, {"spurious", std::int64_t(10)},
           {"labels", std::string("balanced")}});
  auto loss = s.make<Loss>("contrastive-inner-product");
  Rng rng(1);
  auto mixture = s.make<Model>("linear-representation", {{"init", std::string("ideal-mixture")}});
  mixture->init(rng);
  auto specific = s.make<Model>("linear-representation", {{"init", std::string("ideal-specific")}});
  specific->init(rng);
  const std::vector<std::int64_t> labels{5, 10, 20, 40, 100, 400};
  auto ridge = s.make<Probe>("ridge-probe", {{"only_final", false}});
  const Measurements mix = probe(*ridge, *mixture, *loss, s.features);
  const Measurements spec = probe(*ridge, *specific, *loss, s.features);
  for (auto m : labels) {
    const std::string at = ".m=" + std::to_string(m);
    // The trained model is the ideal one here: the probe's two routes agree on the same draws.
    CHECK(metric(mix, "mse.task0" + at) == Approx(metric(mix, "ideal-mixture.mse.task0" + at)).epsilon(1e-3).margin(1e-9));
    CHECK(metric(spec, "mse.task0" + at) == Approx(metric(spec, "ideal-specific.mse.task0" + at)).epsilon(1e-3).margin(1e-9));
    if (m <= 100) CHECK(metric(mix, "mse.task0" + at) > metric(spec, "mse.task0" + at));
    // Prop. 7.4: without P_i no predictor beats v_{i,2} on task i; the mixture's representation keeps improving.
    for (int task = 1; task < 4; ++task) {
      const std::string t = "task" + std::to_string(task);
      CHECK(metric(spec, "mse." + t + at) >= metric(spec, "floor." + t) - 1e-9);
    }
  }
  CHECK(metric(mix, "ideal-ratio.m=40") >= 3);
  CHECK(metric(mix, "universality.m=400") < 0.01);
  CHECK(metric(spec, "floor.task1") == Approx(0.5).epsilon(1e-5));  // balanced labels: v_{1,2} = 1/2
  // B² = v1/α + v2/β: 0.5 + 0.5·T for the mixture, ‖u*‖² = 1 for the specific one.
  CHECK(metric(mix, "min_norm2") == Approx(2.5).epsilon(1e-4));
  CHECK(metric(spec, "min_norm2") == Approx(1.0).epsilon(1e-4));

  // λ = 0: least squares is blind to the weights: with m ≥ r both recover u* exactly on the target task.
  auto ols = s.make<Probe>("ridge-probe", {{"only_final", false}, {"lambda", 0.0}, {"trials", std::int64_t(5)}});
  const Measurements mix0 = probe(*ols, *mixture, *loss, s.features);
  const Measurements spec0 = probe(*ols, *specific, *loss, s.features);
  for (const char* at : {".m=40", ".m=100"}) {
    CHECK(metric(mix0, std::string("mse.task0") + at) < 1e-6);
    CHECK(metric(spec0, std::string("mse.task0") + at) < 1e-6);
  }
}

namespace {

// App. F.1.1's representation: z_R ∈ {−1, 1}² (the input x = z_R) mapped to one of four unit vectors by a table.
class TableModel : public Model {
 public:
  explicit TableModel(MatD points) : points_(std::move(points)) {
    allocate_parameters();
  }
  Index outputs() const override { return 2; }
  void init(Rng&) override {}
  void forward(ConstMatRef X, MatRef out) override {
    for (Index i = 0; i < X.rows(); ++i) out.row(i) = points_.row(index(X(i, 0), X(i, 1))).cast<Scalar>();
  }
  void backward(ConstMatRef, ConstMatRef, VecRef) override {}
  static Index index(Scalar a, Scalar b) { return (a > 0 ? 2 : 0) + (b > 0 ? 1 : 0); }

 private:
  MatD points_;  // 4×2, rows for z = (−1,−1), (−1,1), (1,−1), (1,1)
};

// The population loss with one negative: every (z, z⁻) of the 16, z⁺ = z (no spurious features).
double population_loss(Loss& loss, Model& model) {
  Dataset b;
  b.resize(48, 2, 1);
  b.classes = 2;
  for (Index a = 0; a < 4; ++a) {
    for (Index n = 0; n < 4; ++n) {
      const Index i = 4 * a + n;
      for (Index row : {i, 16 + i}) {
        b.X(row, 0) = a >= 2 ? 1 : -1;
        b.X(row, 1) = a % 2 ? 1 : -1;
      }
      b.X(32 + i, 0) = n >= 2 ? 1 : -1;
      b.X(32 + i, 1) = n % 2 ? 1 : -1;
      b.T(i, 0) = 0;
      b.T(16 + i, 0) = 1;
      b.T(32 + i, 0) = 2;
      b.y(i) = b.y(16 + i) = b.y(32 + i) = 0;
    }
  }
  return loss.evaluate(model, Batch::of(b));
}

// Training accuracy of the least-squares linear classifier (with intercept) of y = z_R[0] on the 4 points.
double linear_probe_accuracy(const MatD& points) {
  MatD A(4, 3);
  A.leftCols(2) = points;
  A.col(2).setOnes();
  VecD y(4);
  y << -1, -1, 1, 1;
  const VecD w = A.completeOrthogonalDecomposition().solve(y);
  const VecD score = A * w;
  double right = 0;
  for (Index i = 0; i < 4; ++i) right += (score(i) > 1e-9 && y(i) > 0) || (score(i) < -1e-9 && y(i) < 0) ? 1 : 0;
  return right / 4;
}

}  // namespace

TEST_CASE("App. F.1.1: an XOR representation is contrastive-optimal yet linearly useless", "[ch7]") {
  Setup s;
  auto loss = s.make<Loss>("contrastive-inner-product", {{"negatives", std::string("single")}});
  MatD xor_points(4, 2), separable(4, 2);
  xor_points << -1, 0, 1, 0, 0, -1, 0, 1;   // the chapter's h: y = z_R[0] becomes an XOR of the two axes
  separable << -1, 0, 0, -1, 1, 0, 0, 1;    // the same four points, assigned so that y is linear
  TableModel h(xor_points), g(separable);
  const double lx = population_loss(*loss, h), lg = population_loss(*loss, g);
  CHECK(lx == Approx(lg).epsilon(1e-6));  // any assignment of the four points: the same contrastive loss
  // ... and the cross is optimal among unit-norm 4-point representations (a random search cannot beat it).
  Rng rng(3);
  for (int k = 0; k < 500; ++k) {
    MatD pts(4, 2);
    for (Index i = 0; i < 4; ++i) {
      const double angle = rng.uniform(0, 2 * M_PI);
      pts(i, 0) = std::cos(angle);
      pts(i, 1) = std::sin(angle);
    }
    TableModel other(pts);
    CHECK(population_loss(*loss, other) >= lx - 1e-6);
  }
  CHECK(linear_probe_accuracy(xor_points) <= 0.5);
  CHECK(linear_probe_accuracy(separable) == 1.0);
}

TEST_CASE("chapter 7 refusals: wrong data, wrong layout, wrong negatives, wrong bounds", "[ch7]") {
  Setup s;
  auto model = s.make<Model>("linear-representation");
  Rng rng(1);
  model->init(rng);
  // Components that read the feature groups refuse a distribution without them.
  const FeatureSet none;
  auto weights = s.make<Probe>("learned-feature-weights");
  auto loss = s.make<Loss>("contrastive-inner-product");
  CHECK_THROWS_WITH(probe(*weights, *model, *loss, none), Catch::Contains("multitask-linear"));
  CHECK_THROWS_WITH(pack().make<Augment>("resample-spurious", {}, s.spec, 1, &none), Catch::Contains("multitask-linear"));
  // A batch without the view layout, and negatives that do not fit it.
  Dataset raw, views;
  s.data->sample(20, Split::Train, rng, raw);
  Vec g(model->trainable_size());
  Dataset roleless = raw;
  roleless.T.resize(0, 0);
  CHECK_THROWS_WITH(loss->evaluate_with_gradient(*model, Batch::of(roleless), g), Catch::Contains("resample-spurious"));
  auto augment = s.make<Augment>("resample-spurious", {{"positives", std::int64_t(15)}});
  augment->apply(Batch::of(raw), views, rng);
  auto single = s.make<Loss>("contrastive-inner-product", {{"negatives", std::string("single")}});
  CHECK_THROWS_WITH(single->evaluate(*model, Batch::of(views)), Catch::Contains("N = K"));
  auto all_pairs = s.make<Augment>("resample-spurious");
  all_pairs->apply(Batch::of(raw), views, rng);
  auto mean = s.make<Loss>("contrastive-inner-product", {{"negatives", std::string("batch-mean")}});
  CHECK_THROWS_WITH(mean->evaluate(*model, Batch::of(views)), Catch::Contains("has none"));
  // The trainer's bounds.
  CHECK_THROWS_WITH(s.make<Trainer>("projected-sgd", {{"frobenius", -0.5}}), Catch::Contains("a number >= 0 or \"auto\""));
  CHECK_THROWS_WITH(pack().make<Trainer>("projected-sgd", {}, s.spec, 1, &none), Catch::Contains("multitask-linear"));
}
