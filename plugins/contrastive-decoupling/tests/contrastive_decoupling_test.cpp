// The contrastive-decoupling pack with std's view augments and info-nce: the sparse-coding dictionary and codes,
// the random-mask second moments that make the decoupling, the symmetric ReLU, the loss at init (Lemma C.3), and
// the probes on hand-built weights. The stop-gradient semi-gradient and the view layout are tested with std
// (plugins/std/tests/info_nce_test.cpp, view_pairs_test.cpp).
#include "gaussian_noise.hpp"

#include <featurelab/augment.hpp>
#include <featurelab/error.hpp>
#include <featurelab/gradient_check.hpp>
#include <featurelab/probe.hpp>
#include <featurelab/testing.hpp>
#include <featurelab/threads.hpp>

#include <catch2/catch.hpp>

#include <cmath>
#include <cstring>
#include <map>
#include <vector>

using namespace featurelab;

namespace {

testing::Harness& pack() { return testing::pack(CONTRASTIVE_DECOUPLING_PLUGIN); }
testing::Harness& std_pack() { return testing::pack(FEATURELAB_STD_PLUGIN); }

std::shared_ptr<Distribution> sparse_coding(std::map<std::string, Value> overrides = {}, std::uint64_t seed = 1) {
  return pack().make<Distribution>("sparse-coding", overrides, DataSpec{}, seed);
}

DataSpec spec_of(const Distribution& data) { return data.spec(); }

// Sum over the rows of a batch of ⟨P v⁺⁺, P v⁺⟩ / rows, for the projection rows P (k×d1): the mean over the
// k directions of E⟨u, x⁺⁺⟩⟨u, x⁺⟩.
struct Moments {
  double sparse = 0, dense = 0;
};

Moments view_moments(Augment& augment, Distribution& data, Index samples, Index K, Rng& rng) {
  const FeatureSet f = data.features();
  const Mat& M = f.at("dictionary");
  const Mat& perp = f.at("completion");
  Dataset raw, views;
  double sparse = 0, dense = 0;
  for (Index done = 0; done < samples; done += K) {
    data.sample(K + 1, Split::Train, rng, raw);  // one negative: the layout needs N >= 1
    augment.apply(Batch::of(raw), views, rng);
    const auto anchors = views.X.topRows(K), positives = views.X.middleRows(K, K);
    sparse += ((anchors * M.transpose()).array() * (positives * M.transpose()).array()).cast<double>().sum() /
              static_cast<double>(M.rows());
    dense += ((anchors * perp.transpose()).array() * (positives * perp.transpose()).array()).cast<double>().sum() /
             static_cast<double>(perp.rows());
  }
  return {sparse / static_cast<double>(samples), dense / static_cast<double>(samples)};
}

// A ProbeInput over the given data (train = test = data).
struct ProbeRun {
  std::vector<NamedAttack> attacks;
  Measurements out;
  double value(const std::string& name) const {
    for (const auto& [n, v] : out.scalars()) {
      if (n == name) return v;
    }
    FAIL("no metric " << name);
    return 0;
  }
};

// Noiseless sparse-coding data (x = Mz) with its features, sampled train and test splits, and the probes' inputs
// for hand-built weights.
struct Noiseless {
  Noiseless(Index train_n, Index test_n, std::uint64_t seed)
      : data(sparse_coding({{"noise", 0.0}})), spec(data->spec()), features(data->features()),
        M(features.at("dictionary")), perp(features.at("completion")),
        loss(std_pack().make<Loss>("info-nce", {}, spec)) {
    Rng rng(seed);
    data->sample(train_n, Split::Train, rng, train);
    data->sample(test_n, Split::Test, rng, test);
  }
  ProbeInput input(Model& model, Index step) const { return ProbeInput{model, *loss, train, test, features, attacks, step}; }

  std::shared_ptr<Distribution> data;
  DataSpec spec;
  FeatureSet features;
  const Mat& M;     // d×d1
  const Mat& perp;  // (d1 − d)×d1
  std::shared_ptr<Loss> loss;
  Dataset train, test;
  std::vector<NamedAttack> attacks;
};

}  // namespace

TEST_CASE("sparse-coding: an orthonormal delocalised dictionary, its completion, ternary codes with Pr(z_j ≠ 0) = p") {
  auto data = sparse_coding();
  const FeatureSet f = data->features();
  const MatD M = f.at("dictionary").cast<double>();      // 32×512
  const MatD perp = f.at("completion").cast<double>();   // 480×512
  REQUIRE(M.rows() == 32);
  REQUIRE(M.cols() == 512);
  REQUIRE(perp.rows() == 480);
  const double tol = kDouble ? 1e-10 : 1e-5;
  CHECK((M * M.transpose() - MatD::Identity(32, 32)).cwiseAbs().maxCoeff() < tol);
  CHECK((perp * perp.transpose() - MatD::Identity(480, 480)).cwiseAbs().maxCoeff() < tol);
  CHECK((M * perp.transpose()).cwiseAbs().maxCoeff() < tol);
  // Delocalised: ‖M_j‖_∞ = Õ(1/√d1) (a Gaussian column's max over 512 entries is ≈ 3.5/√d1).
  CHECK(M.cwiseAbs().maxCoeff() < 5.0 / std::sqrt(512.0));
  const double p = std::log(std::log(32.0)) / 32, s2 = std::sqrt(std::log(32.0)) / 32;
  CHECK(f.at("constants")(0, 0) == Approx(p).epsilon(1e-6));
  CHECK(f.at("constants")(0, 1) == Approx(s2).epsilon(1e-6));

  Rng rng(3);
  Dataset d;
  data->sample(20000, Split::Train, rng, d);
  MatD Z(d.size(), 32);
  for (Index j = 0; j < 32; ++j) Z.col(j) = d.meta.at("z" + std::to_string(j));
  CHECK((Z.array().abs() == 1).cast<double>().mean() == Approx(p).margin(0.003));
  CHECK((Z.array() == 1).cast<double>().mean() == Approx(p / 2).margin(0.002));
  CHECK(((Z.array() != 0) && (Z.array().abs() != 1)).count() == 0);
  // x = Mz + ξ with ξ ~ N(0, σ² I): the residual has variance σ² per coordinate.
  const MatD xi = d.X.cast<double>() - Z * M;
  CHECK(xi.array().square().mean() == Approx(s2).epsilon(0.01));
  // target = ⟨w*, z⟩, y = 1[target > 0], |w*_j| ∈ [1, 2].
  const VecD w = f.at("w_star").row(0).transpose().cast<double>();
  CHECK(w.cwiseAbs().minCoeff() >= 1.0);
  CHECK(w.cwiseAbs().maxCoeff() <= 2.0);
  CHECK((Z * w - d.meta.at("target")).cwiseAbs().maxCoeff() < 1e-4);
  for (Index i = 0; i < 100; ++i) CHECK(d.y(i) == (d.meta.at("target")(i) > 0 ? 1 : 0));
}

TEST_CASE("sparse-coding: Hadamard and identity dictionaries, and bad sizes refused with the fix") {
  auto hadamard = sparse_coding({{"dictionary", std::string("hadamard")}});
  const MatD H = hadamard->features().at("dictionary").cast<double>();
  CHECK((H.cwiseAbs().array() - 1 / std::sqrt(512.0)).abs().maxCoeff() < 1e-6);
  CHECK((H * H.transpose() - MatD::Identity(32, 32)).cwiseAbs().maxCoeff() < 1e-5);
  auto identity = sparse_coding({{"dictionary", std::string("identity")}});
  CHECK(identity->features().at("dictionary").cast<double>().isApprox(MatD::Identity(32, 512)));
  CHECK_THROWS_WITH(sparse_coding({{"d1", std::int64_t(16)}}), Catch::Contains("d1 >= d"));
  CHECK_THROWS_WITH(sparse_coding({{"dictionary", std::string("hadamard")}, {"d1", std::int64_t(500)}}),
                    Catch::Contains("power of 2") && Catch::Contains("512"));
}

TEST_CASE("random-mask: complementary masks decouple the dense noise, independent masks do not") {
  auto data = sparse_coding();
  const FeatureSet f = data->features();
  const Mat& M = f.at("dictionary");
  const Mat& perp = f.at("completion");
  const double p = std::log(std::log(32.0)) / 32, s2 = std::sqrt(std::log(32.0)) / 32;
  // The exact values (our derivation, consistent with Lemma C.2): with Σ_x = p MMᵀ + σ² I, E[x⁺⁺x⁺ᵀ] = Σ_x − diag(Σ_x).
  const VecD diag = (M.transpose() * M).diagonal().cast<double>();  // (MMᵀ)_rr
  const double sparse_exact = p * (1 - (M.cast<double>().array().square().rowwise() * diag.transpose().array()).sum() / 32);
  const double dense_exact = -p * (perp.cast<double>().array().square().rowwise() * diag.transpose().array()).sum() / 480;
  const Index K = 5000, samples = 100000;
  Rng rng(11);
  {
    auto mask = std_pack().make<Augment>("random-mask", {{"positives", K}}, spec_of(*data));
    const Moments m = view_moments(*mask, *data, samples, K, rng);
    CHECK(m.sparse == Approx(sparse_exact).margin(0.003));
    CHECK(m.dense == Approx(dense_exact).margin(0.003));
    CHECK(sparse_exact == Approx(p * (1 - 32.0 / 512)).margin(0.002));
  }
  for (const std::string which : {"independent", "identity"}) {
    std::shared_ptr<Augment> views =
        which == "identity" ? std_pack().make<Augment>("identity-views", {{"positives", K}}, spec_of(*data))
                            : std_pack().make<Augment>("random-mask", {{"positives", K}, {"mode", which}}, spec_of(*data));
    const Moments m = view_moments(*views, *data, samples, K, rng);
    INFO(which);
    CHECK(m.sparse == Approx(p + s2).margin(0.003));
    CHECK(m.dense == Approx(s2).margin(0.003));
  }
}

TEST_CASE("symmetric-relu-layer: h(a, b) = ReLU(a − b) − ReLU(−a − b) for every sign of b, and its gradients") {
  const DataSpec spec = testing::spec(1);
  auto model = pack().make<Model>("symmetric-relu-layer", {{"width", std::int64_t(1)}, {"train_bias", true}}, spec);
  model->block("W")(0, 0) = 1;
  auto h = [&](double a, double b) {
    model->block("b")(0, 0) = static_cast<Scalar>(b);
    Mat x(1, 1), out(1, 1);
    x(0, 0) = static_cast<Scalar>(a);
    model->forward(x, out);
    return static_cast<double>(out(0, 0));
  };
  CHECK(h(0.7, 0) == Approx(0.7));
  CHECK(h(-0.3, 0) == Approx(-0.3));
  CHECK(h(0.7, 0.5) == Approx(0.2));
  CHECK(h(-0.7, 0.5) == Approx(-0.2));
  CHECK(h(0.3, 0.5) == 0);
  CHECK(h(0.1, -0.5) == Approx(0.2));   // 2a inside |a| < |b|
  CHECK(h(1.0, -0.5) == Approx(1.5));   // a − b·sign(a) outside

  const DataSpec wide = testing::spec(6);
  auto net = pack().make<Model>("symmetric-relu-layer", {{"width", std::int64_t(4)}, {"train_bias", true}, {"init_norm", 1.0}}, wide);
  Rng rng(2);
  net->init(rng);
  net->block("b") << Scalar(0.1), Scalar(-0.2), Scalar(0.05), Scalar(0.3);
  Dataset d;
  d.resize(9, 6);
  rng.fill_normal(d.X);
  CHECK(check_input_gradient(*net, Batch::of(d)).ok);
}

TEST_CASE("symmetric-relu-layer: with m = 64 neurons the register-tiled products against XWᵀ and dAᵀX in double, with the same bits on 1 and 2 threads") {
  // 1000 rows (4 blocks of rows, 7 passes of 128 rows for ∇W, a last tile of 4 rows) of d1 = 301 inputs (2 blocks,
  // a last tile of 1 input): every remainder of the tiling.
  const Index n = 1000, d1 = 301, m = 64;
  auto net = pack().make<Model>("symmetric-relu-layer", {{"width", std::int64_t(m)}, {"train_bias", true}, {"init_norm", 1.0}},
                                testing::spec(d1));
  Rng rng(5);
  net->init(rng);
  for (Index j = 0; j < m; ++j) net->block("b")(0, j) = Scalar(0.02) * Scalar(j % 7) - Scalar(0.05);
  Mat X(n, d1), dout(n, m);
  rng.fill_normal(X);
  rng.fill_normal(dout);

  auto step = [&](int threads, Mat& out, Vec& grad) {
    set_job_threads(threads);
    out.resize(n, m);
    grad.setZero(net->trainable_size());
    net->forward(X, out);
    net->backward(X, dout, grad);
    set_job_threads(1);
  };
  Mat out1, out2;
  Vec grad1, grad2;
  step(1, out1, grad1);
  step(2, out2, grad2);
  CHECK(std::memcmp(out1.data(), out2.data(), sizeof(Scalar) * std::size_t(out1.size())) == 0);
  CHECK(std::memcmp(grad1.data(), grad2.data(), sizeof(Scalar) * std::size_t(grad1.size())) == 0);

  // The reference in double: A = XWᵀ, h(A; b), ∇W = (dout ⊙ gate)ᵀ X with the gate of the double A.
  const Eigen::MatrixXd Xd = X.cast<double>(), Wd = net->block("W").cast<double>();
  const Eigen::MatrixXd A = Xd * Wd.transpose();
  Eigen::MatrixXd dA(n, m);
  double worst_out = 0;
  for (Index i = 0; i < n; ++i) {
    for (Index j = 0; j < m; ++j) {
      const double a = A(i, j), b = net->block("b")(0, j);
      const double h = std::max(a - b, 0.0) - std::max(-a - b, 0.0);
      worst_out = std::max(worst_out, std::abs(h - double(out1(i, j))));
      dA(i, j) = double(dout(i, j)) * ((a - b > 0 ? 1.0 : 0.0) + (-a - b > 0 ? 1.0 : 0.0));
    }
  }
  const Eigen::MatrixXd dW = dA.transpose() * Xd;
  const Eigen::Map<const Mat> grad_W(grad1.data(), m, d1);  // W is the first block
  const double worst_grad = (grad_W.cast<double>() - dW).cwiseAbs().maxCoeff();
  CHECK(worst_out < 1e-4 * A.cwiseAbs().maxCoeff());
  CHECK(worst_grad < 1e-4 * dW.cwiseAbs().maxCoeff());
  CHECK(check_input_gradient(*net, Batch::of([&] {
    Dataset d;
    d.X = X.topRows(40);
    d.y.setZero(40);
    return d;
  }())).ok);
}

TEST_CASE("info-nce: at init the loss is τ·ln(N + 1) (Lemma C.3), and a batch without view roles refused with the fix") {
  auto data = sparse_coding();
  const DataSpec spec = spec_of(*data);
  Rng rng(4);
  Dataset raw, views;
  data->sample(2048 + 256, Split::Train, rng, raw);
  auto mask = std_pack().make<Augment>("random-mask", {{"positives", std::int64_t(2048)}}, spec);
  mask->apply(Batch::of(raw), views, rng);
  auto model = pack().make<Model>("symmetric-relu-layer", {}, spec);
  model->init(rng);
  auto loss = std_pack().make<Loss>("info-nce", {}, spec);
  CHECK(static_cast<double>(loss->evaluate(*model, Batch::of(views))) == Approx(std::log(257.0)).margin(0.01));
  CHECK_THROWS_WITH(loss->evaluate(*model, Batch::of(raw)), Catch::Contains("random-mask") && Catch::Contains("[[augment]]"));
}

TEST_CASE("probes on hand-built weights: dictionary alignment, noise removal, linear probe") {
  const Noiseless setting(3000, 2000, 8);
  const DataSpec& spec = setting.spec;
  const Mat& M = setting.M;
  const Mat& perp = setting.perp;

  // Four neurons: atom 0, (atom 1 + atom 2)/√2, a dense direction, and 0.8·atom 3 + 0.6·dense.
  auto model = pack().make<Model>("symmetric-relu-layer", {{"width", std::int64_t(4)}}, spec);
  MatMap W = model->block("W");
  W.row(0) = M.row(0);
  W.row(1) = (M.row(1) + M.row(2)) / std::sqrt(Scalar(2));
  W.row(2) = perp.row(0);
  W.row(3) = Scalar(0.8) * M.row(3) + Scalar(0.6) * perp.row(1);
  auto alignment = pack().make<Probe>("dictionary-alignment", {}, spec);
  ProbeRun run;
  alignment->measure(setting.input(*model, 0), run.out);
  CHECK(run.value("sparse_fraction") == Approx((1 + 1 + 0 + 0.64) / 4).margin(1e-5));
  CHECK(run.value("sparse_fraction_min") == Approx(0).margin(1e-5));
  CHECK(run.value("top1") == Approx((1 + std::sqrt(0.5) + 0 + 0.8) / 4).margin(1e-4));
  CHECK(run.value("singletons_0.9") == Approx(0.25));
  CHECK(run.value("singletons_0.7") == Approx(0.75));
  CHECK(run.value("coverage_0.7") == Approx(4.0 / 32));   // atoms 0, 1, 2, 3
  CHECK(run.value("coverage_0.9") == Approx(1.0 / 32));

  // The dictionary itself as neurons with bias 0.5: f(Mz) = z/2 exactly, and without noise f(x) = f(Mz).
  auto atoms = pack().make<Model>("symmetric-relu-layer", {{"width", std::int64_t(32)}}, spec);
  atoms->block("W") = M;
  atoms->block("b").setConstant(Scalar(0.5));
  auto noise = pack().make<Probe>("noise-alignment", {}, spec);
  ProbeRun clean;
  noise->measure(setting.input(*atoms, 10), clean.out);
  CHECK(clean.value("relative_error") == Approx(0).margin(1e-5));
  CHECK(clean.value("zero_noise") == 1);
  CHECK(clean.value("zero_signal") == Approx(std::pow(1 - std::log(std::log(32.0)) / 32, 32)).margin(0.03));
  auto sparsity = pack().make<Probe>("activation-sparsity", {}, spec);
  ProbeRun fired;
  sparsity->measure(setting.input(*atoms, 10), fired.out);
  CHECK(fired.value("density") == Approx(std::log(std::log(32.0)) / 32).margin(0.005));
  // The target ⟨w*, z⟩ is linear in f(x) = z/2 and in x: both probes fit it.
  auto probe = pack().make<Probe>("linear-probe", {{"labels", std::vector<std::int64_t>{200}}}, spec);
  ProbeRun fit;
  probe->measure(setting.input(*atoms, 10), fit.out);
  CHECK(fit.value("r2") > 0.999);
  CHECK(fit.value("r2.n200") > 0.99);
  CHECK(fit.value("r2.raw") > 0.99);
  CHECK(fit.value("sign_accuracy") == 1);
  auto classify = pack().make<Probe>("linear-probe", {{"task", std::string("classification")}, {"raw", false}}, spec);
  ProbeRun acc;
  classify->measure(setting.input(*atoms, 10), acc.out);
  CHECK(acc.value("accuracy") > 0.98);  // separable; the ridge penalty leaves the few |⟨w*, z⟩| ≈ 0 samples
  CHECK_THROWS_WITH(pack().make<Probe>("linear-probe", {{"target", std::string("label")}}, spec),
                    Catch::Contains("not a meta column") && Catch::Contains("target"));
}

TEST_CASE("linear-probe: with dense noise a linear-in-x predictor reaches the population optimum p/(p + σ²) and no more") {
  auto data = sparse_coding();
  const DataSpec spec = spec_of(*data);
  const FeatureSet features = data->features();
  Rng rng(12);
  Dataset train, test;
  data->sample(20000, Split::Train, rng, train);
  data->sample(5000, Split::Test, rng, test);
  auto loss = std_pack().make<Loss>("info-nce", {}, spec);
  auto model = pack().make<Model>("symmetric-relu-layer", {{"width", std::int64_t(4)}}, spec);
  std::vector<NamedAttack> attacks;
  auto probe = pack().make<Probe>("linear-probe", {}, spec);
  ProbeRun fit;
  probe->measure(ProbeInput{*model, *loss, train, test, features, attacks, 0}, fit.out);
  const double optimum = fit.value("linear_optimum");
  CHECK(optimum == Approx(0.400).margin(0.001));
  CHECK(fit.value("r2.raw") == Approx(optimum).margin(0.04));
}

TEST_CASE("dictionary-alignment: Thm 3.4's supports N_i, off-support and dense coefficients on hand-built neurons") {
  const Noiseless setting(100, 100, 9);
  const DataSpec& spec = setting.spec;
  const Mat& M = setting.M;
  const Mat& perp = setting.perp;
  // 0.95·M_0 + √0.0975·M_1 (N = {0}, off-support 0.312), M_2 (N = {2}, none off it), a dense direction (N = ∅).
  auto model = pack().make<Model>("symmetric-relu-layer", {{"width", std::int64_t(3)}}, spec);
  MatMap W = model->block("W");
  W.row(0) = Scalar(0.95) * M.row(0) + std::sqrt(Scalar(0.0975)) * M.row(1);
  W.row(1) = M.row(2);
  W.row(2) = perp.row(0);
  model->block("b").setConstant(Scalar(0.5));
  auto alignment = pack().make<Probe>("dictionary-alignment", {}, spec);
  ProbeRun run;
  alignment->measure(setting.input(*model, 0), run.out);
  CHECK(run.value("active_atoms") == Approx(2.0 / 3));
  CHECK(run.value("active_atoms_max") == 1);
  CHECK(run.value("atom_neurons_max") == 1);
  CHECK(run.value("off_support_sqrt_d") == Approx(std::sqrt(0.0975) * std::sqrt(32.0) / 2).margin(1e-4));
  CHECK(run.value("dense_max_sqrt_d1") == Approx(std::sqrt(512.0) / 3).margin(1e-3));
}

TEST_CASE("lucky-neuron-sets: Def. B.1's sets at step 0 and what became of their neurons") {
  const Noiseless setting(100, 100, 10);
  const DataSpec& spec = setting.spec;
  const Mat& M = setting.M;
  const Mat& perp = setting.perp;
  auto model = pack().make<Model>("symmetric-relu-layer", {{"width", std::int64_t(4)}}, spec);
  MatMap W = model->block("W");
  // Step 0, with c1·ln d/d = 0.238 and c2·ln d/d = 0.238 − 0.0001 at d = 32: neuron 0 leans on atom 0 alone
  // (lucky), neuron 1 on atoms 1 and 2 equally (a candidate of both, lucky for neither), neuron 2 spreads over
  // every atom (in no set), neuron 3 leans on atom 3 alone (lucky). All carry a dense part, as at initialisation.
  const Mat spread = Mat::Ones(1, 32) * M / std::sqrt(Scalar(32));
  W.row(0) = Scalar(3) * M.row(0) + Scalar(0.1) * spread + perp.row(0);
  W.row(1) = M.row(1) + M.row(2) + perp.row(1);
  W.row(2) = spread + perp.row(2);
  W.row(3) = Scalar(2) * M.row(3) + Scalar(0.1) * spread + perp.row(3);
  auto lucky = pack().make<Probe>("lucky-neuron-sets", {}, spec);
  ProbeRun init;
  lucky->measure(setting.input(*model, 0), init.out);
  CHECK(init.value("lucky_atoms") == Approx(2.0 / 32));
  CHECK(init.value("lucky_per_atom") == Approx(2.0 / 32));
  CHECK(init.value("candidates_max") == 1);

  // Later: neurons 0, 1, 2 are singletons on atoms 0, 1, 5; neuron 3 is 0.6 on atom 3.
  W.row(0) = M.row(0);
  W.row(1) = M.row(1);
  W.row(2) = M.row(5);
  W.row(3) = Scalar(0.6) * M.row(3) + Scalar(0.8) * perp.row(3);
  ProbeRun later;
  lucky->measure(setting.input(*model, 10), later.out);
  CHECK(later.value("lucky_alignment") == Approx((1 + 0.6) / 2).margin(1e-5));
  CHECK(later.value("lucky_singletons") == Approx(0.5));
  CHECK(later.value("other_alignment") == Approx(1).margin(1e-5));
  CHECK(later.value("singletons_from_candidates") == Approx(2.0 / 3));

  // The sets are the initial weights': a first measurement after step 0 is refused with the fix.
  auto late = pack().make<Probe>("lucky-neuron-sets", {}, spec);
  ProbeRun none;
  CHECK_THROWS_WITH(late->measure(setting.input(*model, 10), none.out),
                    Catch::Contains("step 0"));
}

// The sparse-coding noise (Def. 2.1's ξ ~ N(0, σ²I)) by the polar method on a counter-based stream: its moments over
// a million draws, a value determined by the key and its position alone (the first values of a longer or odd-sized
// fill are the same), and another key another stream.
// The same draws from the method's definition, one candidate at a time with libm's log and root: the values, in
// order, of every kept pair (which the fill compacts eight candidates at a time where it can), to the last bits of
// the log.
TEST_CASE("gaussian noise: the polar method's kept pairs, in order, against a scalar reference") {
  using contrastive_decoupling_pack::fill_gaussian_noise;
  Mat fill(1, 3000);  // several blocks of 512 candidates
  fill_gaussian_noise(fill, 0.5, 7);
  const std::uint64_t key = 7;
  std::vector<double> reference;
  for (std::uint64_t counter = 0; reference.size() < 3000; ++counter) {
    std::uint64_t z = key + (counter + 1) * 0x9e3779b97f4a7c15ULL;  // splitmix64's finaliser
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    z ^= z >> 31;
    const double v1 = double(std::int64_t(z >> 32) - (std::int64_t(1) << 31)) * 0x1.0p-31;
    const double v2 = double(std::int64_t(z & 0xffffffffULL) - (std::int64_t(1) << 31)) * 0x1.0p-31;
    const double s = v1 * v1 + v2 * v2;
    if (!(s > 0 && s < 1)) continue;
    const double factor = std::sqrt(-2 * std::log(s) / s) * 0.5;
    reference.push_back(v1 * factor);
    reference.push_back(v2 * factor);
  }
  double worst = 0;
  for (Index i = 0; i < 3000; ++i) {
    worst = std::max(worst, std::abs(double(fill(0, i)) - reference[static_cast<std::size_t>(i)]) /
                                std::max(1.0, std::abs(reference[static_cast<std::size_t>(i)])));
  }
  CHECK(worst < 1e-6);
}

TEST_CASE("gaussian noise: N(0, σ²) moments, values set by key and position, odd sizes filled") {
  using contrastive_decoupling_pack::fill_gaussian_noise;
  Mat big(1000, 1001);
  fill_gaussian_noise(big, 0.5, 42);
  const auto storage = [](const Mat& m) { return Eigen::Map<const Vec>(m.data(), m.size()); };  // in memory order
  const Eigen::ArrayXd v = storage(big).cast<double>().array() / 0.5;
  const double mean = v.mean(), var = (v - mean).square().mean();
  CHECK(std::abs(mean) < 5e-3);                                     // sd of the mean: 1e-3
  CHECK(std::abs(var - 1) < 1e-2);                                   // sd: 1.4e-3
  CHECK(std::abs((v - mean).square().square().mean() / (var * var) - 3) < 3e-2);  // Gaussian kurtosis
  CHECK(std::abs((v.abs() > 1.959964).cast<double>().mean() - 0.05) < 2e-3);     // the two-sided 5 % tail
  CHECK(v.isFinite().all());
  Mat small(3, 7);  // 21 values: fewer than one block, an odd count
  fill_gaussian_noise(small, 0.5, 42);
  CHECK(storage(small) == storage(big).head(21));
  Mat other(3, 7);
  fill_gaussian_noise(other, 0.5, 43);
  CHECK((other.array() != small.array()).all());
}
