// Algorithm 7 of Shi 2024 ch. 3 (App. B.5.7, after Damian et al. 2022) in parts: the network's b̃ = 0
// init (Eq. B.561) and the bias re-initialisation (phased-gd's phase_redraw_b), the subspace-fraction probe
// against W's built by hand, and the one step on W with λ1 = 1/η1 on residualised multi-index labels
// through the real phased-gd trainer, which moves the first layer into span(u_1, …, u_r).
#include <featurelab/error.hpp>
#include <featurelab/fake_trainer_host.hpp>
#include <featurelab/testing.hpp>

#include <catch2/catch.hpp>

#include <Eigen/QR>

#include <cmath>
#include <map>

using namespace featurelab;

namespace {

testing::Harness& index_pack() { return testing::pack(FEATURE_EMERGENCE_PLUGIN); }
testing::Harness& index_std() { return testing::pack(FEATURELAB_STD_PLUGIN); }

double index_scalar(const Measurements& m, const std::string& name) {
  for (const auto& [key, value] : m.scalars()) {
    if (key == name) return value;
  }
  FAIL("no metric " << name);
  return 0;
}

Measurements subspace_of(Model& model, const Mat& directions, const Dataset& data) {
  auto probe = index_pack().make<Probe>("subspace-fraction", {}, testing::spec(directions.cols()));
  auto loss = index_std().make<Loss>("squared", {}, testing::spec(directions.cols()));
  FeatureSet features{{"directions", directions}};
  std::vector<NamedAttack> attacks;
  Measurements out;
  probe->measure(ProbeInput{model, *loss, data, data, features, attacks, 0}, out);
  return out;
}

// r orthonormal rows in R^d.
Mat index_orthonormal_rows(Index r, Index d, Rng& rng) {
  Eigen::MatrixXd g(d, r);
  for (Index i = 0; i < d; ++i) {
    for (Index j = 0; j < r; ++j) g(i, j) = rng.normal();
  }
  Eigen::HouseholderQR<Eigen::MatrixXd> qr(g);
  return Mat((Eigen::MatrixXd(qr.householderQ()) * Eigen::MatrixXd::Identity(d, r)).transpose().cast<Scalar>());
}

// The trainer's distribution: never sampled (the training set is fixed, as Algorithm 7 reuses Z).
class FixedSetDistribution : public Distribution {
 public:
  explicit FixedSetDistribution(DataSpec spec) : spec_(std::move(spec)) {}
  DataSpec spec() const override { return spec_; }
  void sample(Index, Split, Rng&, Dataset&) override { throw Error("the test's stub distribution does not sample"); }

 private:
  DataSpec spec_;
};

}  // namespace

TEST_CASE("phased-gd: phase_redraw_b draws every b_i ~ N(0, σ²) at the phase's start, and b̃ = 0 (Eq. B.561) keeps g = 0") {
  const Index d = 20, width = 400;
  const DataSpec spec = testing::spec(d);
  auto model = index_pack().make<Model>("symmetric-relu-two-layer", {{"width", std::int64_t(width)}, {"init_w", 1 / std::sqrt(double(d))},
                                                                   {"bias", 0.0}}, spec);
  Rng rng(4);
  model->init(rng);
  CHECK(model->block("b").cwiseAbs().maxCoeff() == 0);
  Dataset data;
  data.resize(200, d);
  data.classes = 2;
  rng.fill_normal(data.X);
  for (Index i = 0; i < 200; ++i) data.y(i) = data.X(i, 0) > 0 ? 1 : 0;
  Mat out(200, 1);
  model->forward(data.X, out);
  CHECK(out.cwiseAbs().maxCoeff() == 0);  // homogeneous neurons, still exactly cancelling

  // Two phases at η = 0: nothing trains, the second one's start redraws b with σ = 2.
  auto hinge = index_std().make<Loss>("hinge", {}, spec);
  auto gd = index_std().make<Optimizer>("gd", {}, spec);
  auto trainer = index_pack().make<Trainer>("phased-gd", {{"phase_steps", std::vector<std::int64_t>{1, 1}},
                                                        {"phase_lr", std::vector<double>{0, 0}},
                                                        {"phase_redraw_b", std::vector<double>{0, 2}}}, spec);
  const Mat W0 = model->block("W"), a0 = model->block("a");
  FixedSetDistribution stub(spec);
  auto run = [&](Model& m, std::uint64_t seed) {
    testing::FakeTrainerHost host(*trainer, m, *hinge, *gd, stub, data);
    Rng train_rng(seed);
    host.run(train_rng);
  };
  run(*model, 9);
  const Eigen::ArrayXd b = model->block("b").row(0).transpose().cast<double>().array();
  CHECK(std::abs(b.mean()) < 0.3);  // 3 standard errors at σ = 2
  CHECK(std::sqrt((b - b.mean()).square().mean()) == Approx(2.0).margin(0.2));
  CHECK((b.head(width / 2) - b.tail(width / 2)).abs().minCoeff() > 0);  // independent draws, not mirrored
  CHECK((model->block("W") - W0).cwiseAbs().maxCoeff() == 0);           // only b moves
  CHECK((model->block("a") - a0).cwiseAbs().maxCoeff() == 0);
  model->forward(data.X, out);
  CHECK(out.cwiseAbs().maxCoeff() > 0);

  // The draws are forked off the training seed, not taken from the batches' stream: a run whose first
  // phase has no steps (random features) redraws the same biases; another seed draws others.
  auto rf = index_pack().make<Model>("symmetric-relu-two-layer", {{"width", std::int64_t(width)}, {"bias", 0.0}}, spec);
  auto rf_trainer = index_pack().make<Trainer>("phased-gd", {{"phase_steps", std::vector<std::int64_t>{0, 1}},
                                                           {"phase_lr", std::vector<double>{0, 0}},
                                                           {"phase_redraw_b", std::vector<double>{0, 2}}}, spec);
  rf->init(rng);
  {
    testing::FakeTrainerHost host(*rf_trainer, *rf, *hinge, *gd, stub, data);
    Rng train_rng(9);
    host.run(train_rng);
  }
  CHECK((rf->block("b") - model->block("b")).cwiseAbs().maxCoeff() == 0);
  run(*rf, 10);
  CHECK((rf->block("b") - model->block("b")).cwiseAbs().maxCoeff() > 0);

  CHECK_THROWS_WITH(index_pack().make<Trainer>("phased-gd", {{"phase_steps", std::vector<std::int64_t>{1, 1}},
                                                          {"phase_lr", std::vector<double>{0, 0}},
                                                          {"phase_redraw_b", std::vector<double>{1}}}, spec),
                    Catch::Contains("phase_redraw_b"));
}

TEST_CASE("subspace-fraction: ‖WP‖²/‖W‖² is 1 in the span, cos²θ at angle θ, about r/d for a random W") {
  Rng rng(8);
  const Index d = 40, r = 3, width = 400;
  const Mat U = index_orthonormal_rows(r, d, rng);
  // The feature's rows need not be orthonormal: the probe orthonormalises them (same span).
  Mat F = U;
  F.row(1) = 3 * U.row(0) + U.row(1);
  F.row(2) *= 0.5;
  const Dataset none;
  auto model = index_pack().make<Model>("symmetric-relu-two-layer", {{"width", std::int64_t(width)}, {"init_w", 1.0}}, testing::spec(d));
  model->init(rng);
  const Measurements random = subspace_of(*model, F, none);
  CHECK(index_scalar(random, "chance") == Approx(double(r) / d));
  CHECK(index_scalar(random, "fraction") == Approx(double(r) / d).margin(0.02));
  CHECK(index_scalar(random, "neuron_median") < 0.12);
  CHECK(index_scalar(random, "angle_cos_min") < 0.9);

  // Every neuron a combination of the u_i: all of W in S, and its top-r subspace is S.
  Mat C(width, r);
  rng.fill_normal(C);
  model->block("W") = C * U;
  const Measurements inside = subspace_of(*model, F, none);
  CHECK(index_scalar(inside, "fraction") == Approx(1.0).epsilon(1e-5));
  CHECK(index_scalar(inside, "neuron_median") == Approx(1.0).epsilon(1e-5));
  CHECK(index_scalar(inside, "angle_cos_min") == Approx(1.0).epsilon(1e-4));

  // w_i = cos θ s_i + sin θ v_i with unit s_i ∈ S and unit v_i ⊥ S: exactly cos²θ of each neuron in S.
  const double theta = 0.6;
  Mat V(width, d);
  rng.fill_normal(V);
  V -= (V * U.transpose()) * U;
  for (Index i = 0; i < width; ++i) {
    V.row(i).normalize();
    C.row(i).normalize();
  }
  model->block("W") = Scalar(std::cos(theta)) * (C * U) + Scalar(std::sin(theta)) * V;
  const Measurements tilted = subspace_of(*model, F, none);
  const double c2 = std::cos(theta) * std::cos(theta);
  CHECK(index_scalar(tilted, "fraction") == Approx(c2).epsilon(1e-4));
  CHECK(index_scalar(tilted, "neuron_median") == Approx(c2).epsilon(1e-4));

  Mat wrong(1, d + 1);
  wrong.setOnes();
  CHECK_THROWS_WITH(subspace_of(*model, wrong, none), Catch::Contains("rows of length"));
}

TEST_CASE("Algorithm 7's step: W = −η1∇_W L on residualised multi-index labels lies in span(u_1..u_r)") {
  const Index d = 30, n = 20000, width = 64;
  const std::int64_t r = 2;
  auto dist = index_pack().make<Distribution>("multi-index-gaussian", {{"dim", std::int64_t(d)}, {"r", r}}, {});
  const DataSpec spec = dist->spec();
  Dataset train;
  Rng data_rng(5);
  dist->sample(n, Split::Train, data_rng, train);
  const Mat U = dist->features().at("directions");
  auto model = index_pack().make<Model>("symmetric-relu-two-layer", {{"width", std::int64_t(width)}, {"init_w", 1 / std::sqrt(double(d))},
                                                                   {"bias", 0.0}}, spec);
  Rng init(3);
  model->init(init);
  const Measurements before = subspace_of(*model, U, train);
  const Mat a0 = model->block("a");
  auto squared = index_std().make<Loss>("squared", {}, spec);
  auto gd = index_std().make<Optimizer>("gd", {}, spec);
  const double eta1 = 5.0;
  auto trainer = index_pack().make<Trainer>("phased-gd", {{"phase_steps", std::vector<std::int64_t>{1}},
                                                        {"phase_lr", std::vector<double>{eta1}},
                                                        {"phase_train", std::vector<std::string>{"W"}},
                                                        {"phase_reset", std::vector<std::string>{"W"}},
                                                        {"l2", std::string("half")}}, spec);
  FixedSetDistribution stub(spec);
  testing::FakeTrainerHost host(*trainer, *model, *squared, *gd, stub, train);
  Rng train_rng(1);
  host.run(train_rng);
  const Measurements after = subspace_of(*model, U, train);
  INFO("fraction " << index_scalar(before, "fraction") << " -> " << index_scalar(after, "fraction"));
  CHECK(index_scalar(before, "fraction") < 0.2);  // r/d = 0.067 at init
  CHECK(index_scalar(after, "fraction") > 0.85);  // the rest: finite-sample noise ~ d/n and the E[g* | ⟨w, x⟩ = 0] w term
  CHECK(index_scalar(after, "angle_cos_min") > 0.95);
  CHECK((model->block("a") - a0).cwiseAbs().maxCoeff() == 0);  // Algorithm 7's step touches W only
}
