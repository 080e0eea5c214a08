// The feature-emergence pack on its own: the dictionary data's marginals and normalisation, the
// symmetric init (g ≡ 0), the smoothed truncated ReLU against its definition, gradient checks of the
// network and of its NTK linearisation, and the phased trainer's exact resets.
#include <featurelab/gradient_check.hpp>
#include <featurelab/model_comparison.hpp>
#include <featurelab/testing.hpp>
#include <featurelab/tunable.hpp>

#include <catch2/catch.hpp>

#include <cmath>
#include <limits>

using namespace featurelab;

namespace {

testing::Harness& pack() { return testing::pack(FEATURE_EMERGENCE_PLUGIN); }
testing::Harness& std_pack() { return testing::pack(FEATURELAB_STD_PLUGIN); }

Dataset patterns(const std::map<std::string, Value>& params, Index n, std::shared_ptr<Distribution>& dist) {
  dist = pack().make<Distribution>("dictionary-patterns", params, {});
  Dataset d;
  Rng rng(5);
  dist->sample(n, Split::Train, rng, d);
  return d;
}

}  // namespace

TEST_CASE("dictionary-patterns: balanced parity labels, the label correlation gamma, unit total variance") {
  std::shared_ptr<Distribution> dist;
  const Dataset d = patterns({{"dim", std::int64_t(60)}, {"patterns", std::int64_t(20)}}, 40000, dist);
  const FeatureSet f = dist->features();
  const Mat& M = f.at("dictionary");
  CHECK((M * M.transpose() - Mat::Identity(20, 20)).cwiseAbs().maxCoeff() < Scalar(1e-4));  // orthonormal
  const double positive = d.y.cast<double>().mean();
  CHECK(positive == Approx(0.5).margin(0.01));  // (A0) balanced
  // E‖x‖² = 1 after the analytic normalisation σ̃² = Σ Var φ̃ = D/4.
  CHECK(d.X.rowwise().squaredNorm().mean() == Approx(1).margin(0.02));
  // (A1) γ = E[yφ̃_j] − E[y]E[φ̃_j] = (1 − p_o)/2 = 1/4 on A, 0 off A (y = ±1). Through x:
  // ⟨M_j, x⟩ = (φ̃_j − Eφ̃_j)/σ̃.
  const Mat proj = d.X * M.transpose();  // n×D, = (φ̃ − Eφ̃)/σ̃
  const VecD y = d.y.cast<double>().array() * 2 - 1;
  const double sigma = std::sqrt(20.0 / 4);
  for (Index j = 0; j < 20; ++j) {
    const double gamma = (y.array() * proj.col(j).cast<double>().array()).mean() * sigma;  // E[y] = 0
    if (f.at("relevant")(0, j) > 0) {
      CHECK(gamma == Approx(0.25).margin(0.01));
    } else {
      CHECK(std::abs(gamma) < 0.01);
    }
  }
  // The count of present relevant patterns decides the label.
  for (Index i = 0; i < 200; ++i) CHECK(d.y(i) == static_cast<int>(d.meta.at("relevant_count")(i)) % 2);
  CHECK_THROWS_WITH(pack().make<Distribution>("dictionary-patterns", {{"relevant", std::int64_t(4)}}, {}), Catch::Contains("odd k"));
  CHECK_THROWS_WITH(pack().make<Distribution>("dictionary-patterns", {{"patterns", std::int64_t(600)}}, {}), Catch::Contains("exceeds dim"));
}

TEST_CASE("dictionary-patterns resamples to a class imbalance and labels intervals") {
  std::shared_ptr<Distribution> dist;
  const Dataset d = patterns({{"dim", std::int64_t(40)}, {"patterns", std::int64_t(30)}, {"negative_ratio", 0.8}}, 1000, dist);
  CHECK(d.y.cast<double>().mean() == Approx(0.2).margin(1e-9));
  {
    // x stays centred on the resampled data (App. A.7.2): E φ̃_j on A is p_o/2 + 0.2·(1 − p_o) = 0.35, not ½;
    // the normalisation's μ = Σ_A E φ̃_j says so, and the empirical mean of Mᵀx is ≈ 0 on every pattern.
    const Dataset big = patterns({{"dim", std::int64_t(40)}, {"patterns", std::int64_t(30)}, {"negative_ratio", 0.8}}, 40000, dist);
    const FeatureSet f = dist->features();
    CHECK(f.at("normalisation")(0, 1) == Approx(5 * 0.35).epsilon(1e-6));
    const Mat phi = big.X * f.at("dictionary").transpose();  // n×D, = (φ̃ − Eφ̃)/σ̃
    CHECK(phi.colwise().mean().cwiseAbs().maxCoeff() < Scalar(0.01));
    CHECK(big.X.rowwise().squaredNorm().mean() == Approx(1).margin(0.02));  // σ̃² from the resampled marginals
  }
  const Dataset iv = patterns({{"dim", std::int64_t(120)}, {"patterns", std::int64_t(100)}, {"relevant", std::int64_t(30)},
                               {"model", std::string("independent")}, {"p_relevant", 2.0 / 3}, {"label", std::string("interval")}}, 5000, dist);
  for (Index i = 0; i < iv.size(); ++i) {
    const double c = iv.meta.at("relevant_count")(i);
    CHECK(iv.y(i) == (c >= 20 && c <= 30 ? 1 : 0));
  }
  CHECK(iv.y.cast<double>().mean() == Approx(0.58).margin(0.03));  // Bin(30, 2/3) in [20, 30]
}

TEST_CASE("truncated-two-layer: symmetric init gives g = 0, gradients check with and without smoothing") {
  std::shared_ptr<Distribution> dist;
  const Dataset d = patterns({{"dim", std::int64_t(30)}, {"patterns", std::int64_t(10)}}, 64, dist);
  const DataSpec spec = dist->spec();
  auto model = pack().make<Model>("truncated-two-layer", {{"width", std::int64_t(16)}, {"init_w", 2.0}, {"init_b", 0.3},
                                                          {"smoothing", 0.2}}, spec);
  Rng rng(3);
  model->init(rng);
  Mat out(d.size(), 1);
  model->forward(d.X, out);
  // g = Σ_i a_i σ(w_i·x + b_i) over mirrored pairs (a, −a) cancels exactly in exact arithmetic; the product's
  // summation order decides whether rounding leaves a few ulps of Σ|a_i σ_i| (it does in double).
  Mat hidden;
  model->hook("hidden.post", d.X, hidden);
  const Scalar scale = (hidden.cwiseAbs() * model->block("a").row(0).cwiseAbs().transpose()).maxCoeff();
  CHECK(scale > 0);
  CHECK(out.cwiseAbs().maxCoeff() <= 16 * std::numeric_limits<Scalar>::epsilon() * scale);
  auto hinge = std_pack().make<Loss>("logistic", {}, spec);
  model->parameters().head(model->trainable_size()) += Vec::Constant(model->trainable_size(), Scalar(0.05));  // break the symmetry
  auto r = check_gradient(*model, *hinge, Batch::of(d));
  INFO(r.report);
  CHECK(r.ok);
  dynamic_cast<Tunable&>(*model).tune("smoothing", 0.0);
  r = check_gradient(*model, *hinge, Batch::of(d));
  INFO(r.report);
  CHECK(r.ok);
  CHECK_THROWS_WITH(dynamic_cast<Tunable&>(*model).tune("temperature", 1.0), Catch::Contains("smoothing"));
}

TEST_CASE("the smoothed truncated ReLU is E[sigma(z + xi)] (Monte Carlo) and sigma' its derivative") {
  // A one-neuron network with w = e_1, b = 0, a = 1 reads σ_s at z = x_1.
  const DataSpec spec = testing::spec(1);
  auto model = pack().make<Model>("truncated-two-layer", {{"width", std::int64_t(2)}, {"smoothing", 0.3}}, spec);
  model->block("W").setConstant(1);
  model->block("b").setZero();
  model->block("a") << 1, 0;
  Mat X(5, 1), out(5, 1);
  X << -0.5, 0.0, 0.4, 1.0, 1.7;
  model->forward(X, out);
  Rng rng(9);
  for (Index i = 0; i < 5; ++i) {
    double mc = 0;
    const int draws = 200000;
    for (int s = 0; s < draws; ++s) mc += std::min(1.0, std::max(0.0, X(i, 0) + 0.3 * rng.normal()));
    CHECK(out(i, 0) == Approx(mc / draws).margin(3e-3));
  }
}

// σ_s is computed in fixed blocks of 16 units with Eigen's vectorized erf and exp: within float's
// rounding of the closed form in double, and an entry's bits do not depend on the batch it came in.
TEST_CASE("the smoothed truncated ReLU matches its closed form and gives an entry the same bits in any batch") {
  const DataSpec spec = testing::spec(3);
  const double s = 0.04;
  auto model = pack().make<Model>("truncated-two-layer", {{"width", std::int64_t(22)}, {"smoothing", s}}, spec);
  Rng rng(11);
  model->init(rng);
  model->block("W").setRandom();
  Mat X(40, 3);
  rng.fill_normal(X, 0.6);
  Mat Z, H, part;
  model->hook("hidden.pre", X, Z);
  model->hook("hidden.post", X, H);
  model->hook("hidden.post", X.middleRows(3, 7), part);
  CHECK((part.array() == H.middleRows(3, 7).array()).all());
  const auto Phi = [](double u) { return 0.5 * std::erfc(-u / std::sqrt(2.0)); };
  const auto phi = [](double u) { return std::exp(-0.5 * u * u) / std::sqrt(2 * M_PI); };
  double worst = 0;
  for (Index r = 0; r < Z.rows(); ++r) {
    for (Index c = 0; c < Z.cols(); ++c) {
      const double z = Z(r, c);
      const double exact = (z * Phi(z / s) + s * phi(z / s)) - ((z - 1) * Phi((z - 1) / s) + s * phi((z - 1) / s));
      worst = std::max(worst, std::abs(H(r, c) - exact) / std::max(1.0, std::abs(z)));
    }
  }
  CHECK(worst < 2e-6);
}

TEST_CASE("ntk-two-layer starts at zero and its gradient checks") {
  std::shared_ptr<Distribution> dist;
  const Dataset d = patterns({{"dim", std::int64_t(30)}, {"patterns", std::int64_t(10)}}, 64, dist);
  auto model = pack().make<Model>("ntk-two-layer", {{"width", std::int64_t(16)}, {"init_w", 2.0}}, dist->spec());
  Rng rng(4);
  model->init(rng);
  Mat out(d.size(), 1);
  model->forward(d.X, out);
  CHECK(out.cwiseAbs().maxCoeff() == 0);
  model->parameters().head(model->trainable_size()).setConstant(Scalar(0.01));
  auto loss = std_pack().make<Loss>("logistic", {}, dist->spec());
  const auto r = check_gradient(*model, *loss, Batch::of(d));
  INFO(r.report);
  CHECK(r.ok);
}

// Their work buffers keep the largest batch's storage (featurelab/scratch_rows.hpp): an evaluation over more rows
// between two steps must leave the next step exactly as it was.
TEST_CASE("truncated-two-layer and ntk-two-layer: a forward pass over more rows between steps changes no bit") {
  std::shared_ptr<Distribution> dist;
  const Dataset d = patterns({{"dim", std::int64_t(30)}, {"patterns", std::int64_t(10)}}, 96, dist);
  const Mat small = d.X.topRows(32);
  for (const std::string name : {"truncated-two-layer", "ntk-two-layer"}) {
    INFO(name);
    const auto make = [&] {
      auto model = pack().make<Model>(name, {{"width", std::int64_t(16)}, {"init_w", 2.0}}, dist->spec());
      Rng rng(4);
      model->init(rng);
      model->parameters().head(model->trainable_size()).setConstant(Scalar(0.01));
      return model;
    };
    auto fresh = make(), evaluated = make();
    Mat all(d.size(), 1);
    evaluated->forward(d.X, all);  // 96 rows, then a step of 32
    Mat out_fresh(32, 1), out_evaluated(32, 1);
    Vec grad_fresh = Vec::Zero(fresh->parameters().size()), grad_evaluated = grad_fresh;
    const Mat dout = Mat::Constant(32, 1, Scalar(0.5));
    fresh->forward(small, out_fresh);
    fresh->backward(small, dout, grad_fresh);
    evaluated->forward(small, out_evaluated);
    evaluated->backward(small, dout, grad_evaluated);
    CHECK(out_fresh == out_evaluated);
    CHECK(grad_fresh == grad_evaluated);
    CHECK(all.topRows(32) == out_fresh);  // and the rows of the larger pass are those of the smaller one
  }
}

TEST_CASE("phased-gd validates its phases") {
  CHECK_THROWS_WITH(pack().make<Trainer>("phased-gd", {{"phase_steps", std::vector<std::int64_t>{1, 2}},
                                                       {"phase_lr", std::vector<double>{0.1}}}, {}),
                    Catch::Contains("one per phase"));
  CHECK_THROWS_WITH(pack().make<Trainer>("phased-gd", {{"phase_steps", std::vector<std::int64_t>{1, 2}},
                                                       {"phase_lr", std::vector<double>{0.1, 0.2}},
                                                       {"phase_batch", std::vector<std::int64_t>{0}}}, {}),
                    Catch::Contains("phase_batch has 1 entries"));
  auto t = pack().make<Trainer>("phased-gd", {{"phase_steps", std::vector<std::int64_t>{1, 1, 598}},
                                              {"phase_lr", std::vector<double>{1e-8, 1, 0.01}}}, {});
  CHECK(t->total_steps() == 600);
}

TEST_CASE("phased-gd reads phase_tune entries and refuses malformed ones") {
  const std::map<std::string, Value> base = {{"phase_steps", std::vector<std::int64_t>{1, 2}},
                                             {"phase_lr", std::vector<double>{0.1, 0.2}}};
  auto with = [&](std::vector<std::string> tune) {
    auto p = base;
    p["phase_tune"] = tune;
    return pack().make<Trainer>("phased-gd", p, {});
  };
  CHECK(with({"loss.class_balance=1", "none"})->total_steps() == 3);
  CHECK_THROWS_WITH(with({"class_balance=1", "none"}), Catch::Contains("component.setting=value"));
  CHECK_THROWS_WITH(with({"optimizer.lr=1", "none"}), Catch::Contains("model or loss"));
  CHECK_THROWS_WITH(with({"loss.class_balance=yes", "none"}), Catch::Contains("not a number"));
  CHECK_THROWS_WITH(with({"none"}), Catch::Contains("one per phase"));
}

// Ch. 2's network as layers: linear (2m, bias: W, b) → truncated-relu (this pack's activation) → linear (1, no
// bias: a), with std and this pack loaded together (a `network` names a pack's activation as a layer), equals
// truncated-two-layer at smoothing 0 on the same parameters: outputs, gradients and input gradients.
TEST_CASE("truncated-two-layer composed of std layers and truncated-relu equals the hand-written one") {
  testing::Harness both({FEATURE_EMERGENCE_PLUGIN, FEATURELAB_STD_PLUGIN});
  const DataSpec spec = testing::spec(7, 2);
  auto hand = both.make<Model>("truncated-two-layer", {{"width", std::int64_t(16)}, {"init_w", 0.6}, {"init_b", 0.3},
                                                       {"init_a", 1.0}}, spec);
  ComponentSpec hidden = testing::layer("linear", {{"out", std::int64_t(16)}});
  hidden.block_names = {"W", "b"};
  ComponentSpec readout = testing::layer("linear", {{"out", std::int64_t(1)}, {"bias", false}});
  readout.block_names = {"a"};
  auto composed = both.make<Model>(
      "network", {{"layer", testing::layers({hidden, testing::layer("truncated-relu"), readout})}}, spec);
  Rng rng(9);
  hand->init(rng);
  hand->block("a").setRandom();  // the symmetric init's g ≡ 0 would make the outputs agree trivially
  Mat X(50, 7);
  rng.fill_normal(X);
  const testing::ModelComparison c = testing::compare_models(*hand, *composed, X);
  CHECK(c.failures(1e-5, 0.1) == "");
}
