// Chapter 8's components on their own (Shi 2024 ch. 8, looped linear transformers): the prompts' layout and exact
// doubles, Lemma 8.13's attention algebra, Thm. 8.14's equivalence with gradient descent to 1e-9 in double with the
// example rows and the α cell unchanged bit for bit, κ on matrices whose spectrum is known, the bounds (including the
// exact GD rate, attained along the λ_min eigenvector), the probes on reduced prompts (and that they fail a perturbed
// construction and float32 loops), and the refusals of bad parameters.
#include "../src/ch8-looped-transformer/least_squares.hpp"
#include "../src/ch8-looped-transformer/looped_linear_transformer.hpp"
#include "../src/ch8-looped-transformer/prompt_layout.hpp"

#include <featurelab/error.hpp>
#include <featurelab/probe.hpp>
#include <featurelab/testing.hpp>

#include "rt_harness.hpp"

#include <catch2/catch.hpp>

#include <Eigen/QR>

#include <cmath>
#include <cstring>
#include <map>
#include <string>
#include <type_traits>
#include <vector>

using namespace featurelab;
using rt_test::pack;
using rt_test::std_pack;
using rt_test::metric;
using namespace featurelab::representation_theory_pack;

namespace {

// A fresh set of prompts from the distribution, and the spec the model and probes are built with.
struct Prompts {
  DataSpec spec;
  Dataset data;
};
Prompts draw(Index n, Index d, double alpha, Index count, std::uint64_t seed = 7) {
  auto dist = pack().make<Distribution>("looped-icl-prompts",
                                        {{"n", std::int64_t(n)}, {"d", std::int64_t(d)}, {"alpha", alpha}});
  Prompts p;
  p.spec = dist->spec();
  Rng rng(seed);
  dist->sample(count, Split::Test, rng, p.data);
  return p;
}

std::shared_ptr<Model> looped(const DataSpec& spec, const std::map<std::string, Value>& overrides = {}) {
  auto model = pack().make<Model>("looped-linear-transformer", overrides, spec);
  Rng rng(3);
  model->init(rng);
  return model;
}

// Runs one probe of the pack on the test prompts.
Measurements probe(const std::string& name, Model& model, const Dataset& test,
                   const std::map<std::string, Value>& overrides = {}) {
  auto p = pack().make<Probe>(name, overrides);
  auto loss = std_pack().make<Loss>("squared", {});
  const FeatureSet features;
  const std::vector<NamedAttack> attacks;
  Measurements out;
  p->measure(ProbeInput{model, *loss, test, test, features, attacks, 0}, out);
  return out;
}

// A prompt matrix with a given example block X, task θ*, query α and query slot q (which Lemma 8.13 allows to be any).
MatD prompt(const MatD& X, const VecD& theta, double alpha, const VecD& q) {
  const Index n = X.rows(), d = X.cols();
  MatD Z(n + 1, d + 1);
  Z.topLeftCorner(n, d) = X;
  Z.col(d).head(n) = X * theta;
  Z.row(n).head(d) = q.transpose();
  Z(n, d) = alpha;
  return Z;
}

MatD gaussian(Index rows, Index cols, Rng& rng) {
  MatD m(rows, cols);
  for (Index i = 0; i < m.size(); ++i) m.data()[i] = rng.normal();
  return m;
}

}  // namespace

TEST_CASE("looped-icl-prompts: Def. 8.5 layout, y = X theta*, a unit task, exact doubles in the meta columns", "[ch8]") {
  const Index n = 16, d = 4;
  const double alpha = -0.7;  // not a float: the meta columns must keep it exact in a float build
  const Prompts p = draw(n, d, alpha, 5);
  REQUIRE(p.spec.dim == (n + 1) * (d + 1));
  REQUIRE(p.spec.shape.dims == std::vector<Index>{n + 1, d + 1});
  REQUIRE(p.spec.target_cols == d);
  const auto prompts = read_prompts(p.data, "test", true);
  REQUIRE(prompts.size() == 5);
  for (std::size_t s = 0; s < prompts.size(); ++s) {
    const LoopedPrompt& z = prompts[s];
    CHECK(z.Z.row(n).head(d).isZero(0));  // q^(0) = 0
    CHECK(z.alpha() == alpha);
    CHECK(z.theta_star.norm() == Approx(1).epsilon(1e-15));
    CHECK((z.y() - z.X() * z.theta_star).cwiseAbs().maxCoeff() == 0);  // the labels are exactly Xθ*, in double
    // The Scalar row is the same prompt, rounded to Scalar; the examples were drawn already rounded, so they agree.
    const MatD stored = prompt_matrix(p.data.X.row(static_cast<Index>(s)).data(), {n, d});
    CHECK((stored.topLeftCorner(n, d) - z.X()).cwiseAbs().maxCoeff() == 0);
    CHECK((stored - z.Z).cwiseAbs().maxCoeff() <= 1e-6);
    const VecD target = p.data.T.row(static_cast<Index>(s)).transpose().cast<double>();
    CHECK((target - alpha * z.theta_star).cwiseAbs().maxCoeff() <= 1e-6);
  }
  // Different prompts have different tasks (θ* is drawn per prompt).
  CHECK((prompts[0].theta_star - prompts[1].theta_star).norm() > 1e-3);
}

TEST_CASE("looped-icl-prompts: refuses n <= d and alpha = 0, naming the parameter", "[ch8]") {
  CHECK_THROWS_WITH(pack().make<Distribution>("looped-icl-prompts", {{"n", std::int64_t(4)}, {"d", std::int64_t(4)}}),
                    Catch::Contains("raise data.n above 4"));
  CHECK_THROWS_WITH(pack().make<Distribution>("looped-icl-prompts", {{"alpha", 0.0}}), Catch::Contains("alpha must be nonzero"));
  CHECK_THROWS_WITH(pack().make<Distribution>("looped-icl-prompts", {{"d", std::int64_t(0)}}), Catch::Contains("d: expected"));
}

TEST_CASE("looped-linear-transformer: Lemma 8.13, the masked attention is [[0, 0], [q'X'X + alpha y'X, 0]] for any q", "[ch8]") {
  const Index n = 9, d = 3;
  const Prompts p = draw(n, d, 1.0, 1);
  auto model = looped(p.spec);
  const auto& tf = dynamic_cast<const LoopedLinearTransformer&>(*model);
  Rng rng(11);
  const MatD X = gaussian(n, d, rng);
  const VecD theta = gaussian(d, 1, rng).col(0).normalized(), q = gaussian(d, 1, rng).col(0);
  const double alpha = 1.3;
  const MatD Z = prompt(X, theta, alpha, q);
  const MatD attn = tf.attention(Z);
  // The closed form entry by entry, with plain sums (no shared Eigen expression with the model).
  const VecD y = Z.col(d).head(n);
  for (Index j = 0; j < d; ++j) {
    double expected = 0;
    for (Index i = 0; i < n; ++i) {
      double xq = 0;
      for (Index k = 0; k < d; ++k) xq += X(i, k) * q(k);
      expected += (xq + alpha * y(i)) * X(i, j);
    }
    CHECK(attn(n, j) == Approx(expected).epsilon(1e-12));
  }
  // Everything else is exactly 0: the mask zeroes rows 1..n, P's zero column the label column.
  MatD rest = attn;
  rest.row(n).head(d).setZero();
  CHECK((rest.array() != 0).count() == 0);
  // The construction's weights are Q = I and P = diag(I_d, 0), not trainable.
  CHECK(model->trainable_size() == 0);
  CHECK(MatD(model->block("Q").cast<double>()).isIdentity(0));
  MatD P = MatD::Identity(d + 1, d + 1);
  P(d, d) = 0;
  CHECK((model->block("P").cast<double>() - P).cwiseAbs().maxCoeff() == 0);
}

TEST_CASE("looped-linear-transformer: TF after t loops is alpha theta^(t) of gradient descent to 1e-9 in double", "[ch8]") {
  const Index n = 16, d = 4, loops = 200;
  const double alpha = 0.7;
  const Prompts p = draw(n, d, alpha, 4);
  auto model = looped(p.spec, {{"loops", std::int64_t(loops)}});
  const auto& tf = dynamic_cast<const LoopedLinearTransformer&>(*model);
  const auto prompts = read_prompts(p.data, "test", true);
  for (const auto& z : prompts) {
    const auto trace = tf.unroll(z.Z);
    REQUIRE(trace.q.rows() == loops + 1);
    const double eta = tf.step_size(z.Z);
    CHECK(eta == Approx(1 / gram_spectrum(z.X()).lambda_max).epsilon(1e-14));
    const MatD theta = gd_trajectory(z.X(), z.y(), VecD::Zero(d), eta, loops);
    // TF_t = −q^(t) = αθ^(t) at every loop, not just the last (Thm. 8.14's induction).
    CHECK((-trace.q - alpha * theta).cwiseAbs().maxCoeff() <= 1e-9 * std::abs(alpha));
    // Rows 1..n and the α cell are the prompt's, bit for bit.
    CHECK(std::memcmp(trace.Z.data(), z.Z.data(), sizeof(double) * static_cast<std::size_t>(n * (d + 1))) == 0);
    CHECK(std::memcmp(&trace.Z(n, d), &z.Z(n, d), sizeof(double)) == 0);
    // After 200 loops gradient descent has reached θ*: the transformer outputs αθ* (the sign convention TF = −last row of Z).
    CHECK((-trace.Z.row(n).head(d).transpose() - alpha * z.theta_star).norm() <= 1e-6);
  }
  // forward() is the same computation through the Scalar interface: TF for every prompt at once.
  Mat out(p.data.size(), d);
  model->forward(p.data.X, out);
  for (std::size_t s = 0; s < prompts.size(); ++s) {
    const VecD expected = alpha * prompts[s].theta_star;
    CHECK((out.row(static_cast<Index>(s)).transpose().cast<double>() - expected).norm() <= 1e-5);
  }
}

TEST_CASE("looped-linear-transformer: a constant step runs gradient descent with that step", "[ch8]") {
  const Prompts p = draw(32, 4, 2.0, 2);
  auto model = looped(p.spec, {{"loops", std::int64_t(50)}, {"step_size", std::string("constant")}, {"eta", 0.004}});
  const auto& tf = dynamic_cast<const LoopedLinearTransformer&>(*model);
  for (const auto& z : read_prompts(p.data, "test", true)) {
    CHECK(tf.step_size(z.Z) == 0.004);
    const MatD theta = gd_trajectory(z.X(), z.y(), VecD::Zero(4), 0.004, 50);
    CHECK((-tf.unroll(z.Z).q - 2.0 * theta).cwiseAbs().maxCoeff() <= 1e-9 * 2.0);
  }
}

TEST_CASE("gram_spectrum: kappa of matrices whose spectrum is known", "[ch8]") {
  // X = U diag(σ) Vᵀ with orthonormal U (n×d) and V: XᵀX = V diag(σ²) Vᵀ, κ = (σ_max / σ_min)².
  Rng rng(5);
  const Index n = 12, d = 4;
  const Eigen::HouseholderQR<Eigen::MatrixXd> qu(gaussian(n, d, rng)), qv(gaussian(d, d, rng));
  const Eigen::MatrixXd U = qu.householderQ() * Eigen::MatrixXd::Identity(n, d);
  const Eigen::MatrixXd V = qv.householderQ();
  const Eigen::Vector4d sigma(3.0, 2.0, 1.5, 0.5);
  const MatD X = U * sigma.asDiagonal() * V.transpose();
  const GramSpectrum s = gram_spectrum(X);
  CHECK(s.lambda_max == Approx(9.0).epsilon(1e-12));
  CHECK(s.lambda_min == Approx(0.25).epsilon(1e-12));
  CHECK(s.kappa() == Approx(36.0).epsilon(1e-12));
  // Rank-deficient examples have no finite κ.
  MatD flat = X;
  flat.col(3) = flat.col(2);
  CHECK(gram_spectrum(flat).kappa() > 1e12);

  // The probe reports the same for prompts built on such blocks (κ = 36 and, scaled, still 36; and κ = 1 for an
  // orthonormal block).
  Dataset data;
  data.resize(3, (n + 1) * (d + 1), d);
  data.shape.dims = {n + 1, d + 1};
  const VecD theta = VecD::Unit(d, 0);
  const MatD blocks[] = {X, 2.5 * X, MatD(U)};
  for (Index s2 = 0; s2 < 3; ++s2) {
    const MatD Z = prompt(blocks[s2], theta, 1.0, VecD::Zero(d));
    Eigen::Map<Mat>(data.X.row(s2).data(), n + 1, d + 1) = Z.cast<Scalar>();
  }
  const Prompts p = draw(n, d, 1.0, 1);
  auto model = looped(p.spec);
  const Measurements m = probe("condition-number", *model, data);
  const double tol = std::is_same_v<Scalar, float> ? 1e-5 : 1e-12;  // the blocks went through Scalar
  CHECK(metric(m, "kappa_max") == Approx(36.0).epsilon(tol));
  CHECK(metric(m, "kappa_min") == Approx(1.0).epsilon(tol));
  CHECK(metric(m, "kappa") == Approx((36.0 + 36.0 + 1.0) / 3).epsilon(tol));
  REQUIRE(m.tables().size() == 1);
  CHECK(m.tables()[0].second.values.rows() == 3);
}

TEST_CASE("bounds: theory and exact-GD lines, and GD attains the exact rate along the lambda_min eigenvector", "[ch8]") {
  CHECK(log_theory_bound(0, 3.0) == 0);
  CHECK(log_theory_bound(30, 3.0) == Approx(-10.0));
  CHECK(log_exact_gd_bound(0, 3.0) == 0);
  CHECK(log_exact_gd_bound(10, 3.0) == Approx(20 * std::log(2.0 / 3.0)));
  CHECK(log_exact_gd_bound(10, 3.0) < 2 * log_theory_bound(10, 3.0));  // ln(1 − 1/κ) < −1/κ: twice as steep, at least
  // XᵀX = diag(4, 2, 1, 1) (κ = 4), θ* = e_4, θ^(0) = 0, η = 1/4: e_t = (1 − 1/4)^{2t} exactly (the error lies on the
  // λ_min eigenvector), so the exact bound is attained and Thm. 8.25's is loose.
  MatD X = MatD::Zero(6, 4);
  X.topLeftCorner(4, 4) = Eigen::Vector4d(2.0, std::sqrt(2.0), 1.0, 1.0).asDiagonal();
  const VecD theta_star = VecD::Unit(4, 3);
  const MatD path = gd_trajectory(X, X * theta_star, VecD::Zero(4), 0.25, 40);
  for (Index t : {1, 5, 20, 40}) {
    const double log_err = std::log((path.row(t).transpose() - theta_star).squaredNorm());
    CHECK(log_err == Approx(log_exact_gd_bound(static_cast<double>(t), 4.0)).epsilon(1e-12));
    CHECK(log_err < log_theory_bound(static_cast<double>(t), 4.0));
  }
}

TEST_CASE("gd-equivalence: the loop equals multi-step GD for the construction and fails for a perturbed one or float32 loops", "[ch8]") {
  const Prompts p = draw(16, 4, 0.7, 3);
  auto exact = looped(p.spec, {{"loops", std::int64_t(100)}});
  const Measurements m = probe("gd-equivalence", *exact, p.data);
  CHECK(metric(m, "max_rel_diff") <= 1e-9);
  CHECK(metric(m, "max_diff") <= 1e-9 * 0.7);
  CHECK(metric(m, "rows_changed") == 0);
  CHECK(metric(m, "alpha_changed") == 0);
  CHECK(metric(m, "lemma_diff") <= 1e-12);
  CHECK(metric(m, "attn_outside") == 0);

  auto perturbed = looped(p.spec, {{"loops", std::int64_t(100)}, {"perturb", 0.05}});
  const Measurements bad = probe("gd-equivalence", *perturbed, p.data);
  CHECK(metric(bad, "max_rel_diff") > 1e-3);
  CHECK(metric(bad, "rows_changed") == 0);    // the mask alone keeps the examples, whatever Q and P are...
  CHECK(metric(bad, "alpha_changed") > 0);    // ...but only P's zero column keeps α
  CHECK(metric(bad, "attn_outside") > 0);
  CHECK(metric(bad, "lemma_diff") > 1e-3);

  auto single = looped(p.spec, {{"loops", std::int64_t(100)}, {"precision", std::string("float32")}});
  const Measurements coarse = probe("gd-equivalence", *single, p.data);
  CHECK(metric(coarse, "max_rel_diff") > 1e-9);
  CHECK(metric(coarse, "max_rel_diff") < 1e-4);
}

TEST_CASE("loop-error-decay: the bounds hold at every loop and the error reaches the float64 floor (reduced Fig. 8.1)", "[ch8]") {
  const Prompts p = draw(64, 4, 0.7, 10);
  auto model = looped(p.spec, {{"loops", std::int64_t(120)}});
  const Measurements m = probe("loop-error-decay", *model, p.data, {{"at", std::vector<std::int64_t>{0, 10, 20, 50, 120}}});
  CHECK(metric(m, "log_err.t=0") == 0);
  CHECK(metric(m, "theory_slack") <= 1e-9);
  CHECK(metric(m, "exact_gd_slack") <= 1e-9);
  CHECK(metric(m, "pred_slack") <= 1e-9);
  // Steeper than the theory line, and at least as steep as twice it (exact GD contracts by 1 − 1/κ a step).
  CHECK(metric(m, "log_err.t=10") < metric(m, "theory.t=10"));
  CHECK(metric(m, "rate") <= 2 * metric(m, "theory_rate"));
  CHECK(metric(m, "rate") <= metric(m, "exact_gd_rate") + 1e-9);
  // The floor: by loop 120 every prompt is at the float64 floor, and not below what float64 can resolve.
  CHECK(metric(m, "at_floor") == 1);
  CHECK(metric(m, "floor_level") < std::log(1e-28));
  CHECK(metric(m, "floor_level") > std::log(1e-36));
  // The plot table: the measured curve at every loop (121 rows) and the bounds above the floor.
  REQUIRE(m.tables().size() == 1);
  const Table& curve = m.tables()[0].second;
  CHECK(curve.col_names == std::vector<std::string>{"x", "y", "series"});
  CHECK((curve.values.col(2).array() == 0).count() == 121);
  CHECK((curve.values.col(1).array() < std::log(1e-28) && curve.values.col(2).array() > 0).count() == 0);

  // The same loops in float32 stop near its own floor (about 1e-14).
  auto single = looped(p.spec, {{"loops", std::int64_t(120)}, {"precision", std::string("float32")}});
  const Measurements coarse = probe("loop-error-decay", *single, p.data, {{"at", std::vector<std::int64_t>{120}}});
  CHECK(metric(coarse, "floor_level") > std::log(1e-18));
  CHECK(metric(coarse, "floor_level") < std::log(1e-11));
  CHECK(metric(coarse, "at_floor") == 0);
}

TEST_CASE("chapter 8: bad parameters and misuse are refused with the parameter and the fix", "[ch8]") {
  const Prompts p = draw(16, 4, 1.0, 2);
  CHECK_THROWS_WITH(pack().make<Model>("looped-linear-transformer", {{"loops", std::int64_t(0)}}, p.spec),
                    Catch::Contains("loops: expected"));
  CHECK_THROWS_WITH(pack().make<Model>("looped-linear-transformer", {{"step_size", std::string("fixed")}}, p.spec),
                    Catch::Contains("inv-lambda-max"));
  CHECK_THROWS_WITH(pack().make<Model>("looped-linear-transformer", {{"eta", 0.0}}, p.spec), Catch::Contains("eta: expected"));
  CHECK_THROWS_WITH(pack().make<Probe>("loop-error-decay", {{"floor", 2.0}}), Catch::Contains("floor: expected"));
  // A model on data that are not prompt matrices.
  DataSpec flat;
  flat.dim = 10;
  CHECK_THROWS_WITH(pack().make<Model>("looped-linear-transformer", {}, flat), Catch::Contains("looped-icl-prompts"));
  // A probe asked for a loop the model does not run.
  auto model = looped(p.spec, {{"loops", std::int64_t(20)}});
  CHECK_THROWS_WITH(probe("loop-error-decay", *model, p.data), Catch::Contains("raise model.loops"));
  // A probe on another model.
  DataSpec spec = p.spec;
  spec.classes = 2;
  auto linear = std_pack().make<Model>("linear", {}, spec);
  CHECK_THROWS_WITH(probe("gd-equivalence", *linear, p.data), Catch::Contains("model.use = \"looped-linear-transformer\""));
  // Nothing to train.
  Vec grad(0);
  Mat dout = Mat::Zero(p.data.size(), 4);
  CHECK_THROWS_WITH(model->backward(p.data.X, dout, grad), Catch::Contains("train.steps = 0"));
}

