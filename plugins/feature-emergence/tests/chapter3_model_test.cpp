// Chapter 3 of Shi 2024 (and Lemma 2.5 of chapter 2) on their own: the 4m symmetric ReLU network
// (g ≡ 0 exactly, gradients), the step-1 identity w_i^(1) = −η1 ℓ′(0) a_i^(0) Ĝ(w_i^(0), b_i) driven
// through the real phased-gd trainer and checked against the gradient-features probe, the
// ground-truth networks fitting data generated here with the margins their lemmas state, the
// gradient-feature cone rates with a random-label control, and the neuron map.
#include <featurelab/fake_trainer_host.hpp>
#include <featurelab/error.hpp>
#include <featurelab/gradient_check.hpp>
#include <featurelab/testing.hpp>

#include <catch2/catch.hpp>

#include <Eigen/QR>

#include <cmath>
#include <functional>
#include <map>

using namespace featurelab;

namespace {

testing::Harness& ch3_pack() { return testing::pack(FEATURE_EMERGENCE_PLUGIN); }
testing::Harness& ch3_std() { return testing::pack(FEATURELAB_STD_PLUGIN); }

// A d×d matrix with orthonormal rows (the dictionary M, row l = M_lᵀ).
Mat orthonormal(Index d, Rng& rng) {
  Eigen::MatrixXd g(d, d);
  for (Index r = 0; r < d; ++r) {
    for (Index c = 0; c < d; ++c) g(r, c) = rng.normal();
  }
  Eigen::HouseholderQR<Eigen::MatrixXd> qr(g);
  return Mat(Eigen::MatrixXd(qr.householderQ()).transpose().cast<Scalar>());
}

Dataset labelled(const Mat& X, const std::vector<int>& y) {
  Dataset d;
  d.resize(X.rows(), X.cols());
  d.classes = 2;
  d.X = X;
  for (Index i = 0; i < X.rows(); ++i) d.y(i) = y[static_cast<std::size_t>(i)] > 0 ? 1 : 0;
  return d;
}

// x ~ N(0, I_d), y = sign(x_0 x_1): XOR-like data, E[y x] = 0 in the population (the empirical mean is small but not 0).
Dataset xor_like(Index n, Index d, std::uint64_t seed, Mat* X_out = nullptr) {
  Rng rng(seed);
  Mat X(n, d);
  rng.fill_normal(X);
  std::vector<int> labels;
  for (Index i = 0; i < n; ++i) labels.push_back(X(i, 0) * X(i, 1) > 0 ? 1 : -1);
  if (X_out) *X_out = X;
  return labelled(X, labels);
}

VecD signed_labels(const Dataset& d) {
  VecD y(d.size());
  for (Index i = 0; i < d.size(); ++i) y(i) = d.y(i) == 1 ? 1.0 : -1.0;
  return y;
}

// y g(x) for every sample.
VecD margins(Model& model, const Dataset& d) {
  Mat out(d.size(), 1);
  model.forward(d.X, out);
  return signed_labels(d).array() * out.col(0).cast<double>().array();
}

// Structured parity (Sec. 3.4.2, Eq. B.396–B.397): x = Mφ, blocks A_j = {jk..jk+k−1}, φ_A uniform ±1 with
// probability 1 − 2r p_A, else one block all +1 or all −1 and the other blocks 0; background ±1 w.p. p_o
// each, else 0; y = sign(Σ_j Π_{l∈A_j} φ_l).
Dataset structured_parity(Index n, Index d, int r, int k, double pA, double po, const Mat& M, Rng& rng, Mat& directions) {
  Mat X(n, d);
  std::vector<int> y(static_cast<std::size_t>(n));
  VecD phi(d);
  for (Index s = 0; s < n; ++s) {
    phi.setZero();
    if (rng.uniform() < 2 * r * pA) {
      const int j = static_cast<int>(rng.integer(0, r - 1));
      const double sign = rng.uniform() < 0.5 ? 1.0 : -1.0;
      for (int l = 0; l < k; ++l) phi(j * k + l) = sign;
    } else {
      for (int l = 0; l < r * k; ++l) phi(l) = rng.uniform() < 0.5 ? 1.0 : -1.0;
    }
    for (Index l = r * k; l < d; ++l) {
      const double u = rng.uniform();
      phi(l) = u < po ? 1.0 : (u < 2 * po ? -1.0 : 0.0);
    }
    double sum = 0;
    for (int j = 0; j < r; ++j) {
      double prod = 1;
      for (int l = 0; l < k; ++l) prod *= phi(j * k + l);
      sum += prod;
    }
    REQUIRE(sum != 0);  // r odd: never sign(0)
    y[static_cast<std::size_t>(s)] = sum > 0 ? 1 : -1;
    X.row(s) = (phi.transpose().cast<Scalar>() * M);
  }
  directions = Mat::Zero(r, d);
  for (int j = 0; j < r; ++j) {
    for (int l = 0; l < k; ++l) directions.row(j) += M.row(j * k + l);
  }
  directions /= static_cast<Scalar>(std::sqrt(double(k)));
  return labelled(X, y);
}

// The trainer's distribution: never sampled (the training set is fixed).
class StubDistribution : public Distribution {
 public:
  explicit StubDistribution(DataSpec spec) : spec_(std::move(spec)) {}
  DataSpec spec() const override { return spec_; }
  void sample(Index, Split, Rng&, Dataset&) override { throw Error("the test's stub distribution does not sample"); }

 private:
  DataSpec spec_;
};

double scalar(const Measurements& m, const std::string& name) {
  for (const auto& [key, value] : m.scalars()) {
    if (key == name) return value;
  }
  FAIL("no metric " << name);
  return 0;
}

}  // namespace

TEST_CASE("symmetric-relu-two-layer: Eq. 3.9's 4m init gives g = 0 exactly, b is fixed, gradients check") {
  for (const std::string init : {"gaussian", "binary"}) {
    for (const auto& [width, d] : std::vector<std::pair<std::int64_t, Index>>{{28, 13}, {64, 13}, {200, 131}, {36, 300}}) {
      const Index m = width / 4;
      auto model = ch3_pack().make<Model>("symmetric-relu-two-layer", {{"width", width}, {"init_w", 0.7}, {"init_a", 2.0},
                                                                       {"bias", 0.3}, {"init", init}}, testing::spec(d));
      Rng rng(11);
      model->init(rng);
      const Mat W = model->block("W"), a = model->block("a"), b = model->block("b");
      CHECK(model->trainable_size() == width * d + width);  // W and a; b is not trainable
      CHECK((W.middleRows(m, m) + W.topRows(m)).cwiseAbs().maxCoeff() == 0);
      CHECK((W.bottomRows(2 * m) - W.topRows(2 * m)).cwiseAbs().maxCoeff() == 0);
      CHECK((a.middleCols(m, m) + a.leftCols(m)).cwiseAbs().maxCoeff() == 0);
      CHECK((a.rightCols(2 * m) + a.leftCols(2 * m)).cwiseAbs().maxCoeff() == 0);
      CHECK((b.leftCols(m).array() == Scalar(0.3)).all());
      CHECK((b.middleCols(m, m).array() == Scalar(-0.3)).all());
      CHECK((b.rightCols(2 * m) - b.leftCols(2 * m)).cwiseAbs().maxCoeff() == 0);
      if (init == "binary") CHECK((W.topRows(m).cwiseAbs().array() == Scalar(0.7)).all());
      Mat X(300, d), out(300, 1);
      rng.fill_normal(X, 3.0);
      model->forward(X, out);
      INFO(init << ", width " << width << ", d " << d);
      CHECK(out.cwiseAbs().maxCoeff() == 0);  // exactly, not approximately
      Mat pre;
      model->hook("hidden.pre", X, pre);  // neuron i and its copy i + 2m: bitwise-equal pre-activations
      CHECK((pre.leftCols(2 * m) - pre.rightCols(2 * m)).cwiseAbs().maxCoeff() == 0);
    }
  }
  const Index d = 9;
  auto model = ch3_pack().make<Model>("symmetric-relu-two-layer", {{"width", std::int64_t(16)}, {"init_w", 0.8}}, testing::spec(d));
  Rng rng(5);
  model->init(rng);
  const Vec b0 = Eigen::Map<const Vec>(model->block("b").data(), 16);
  model->parameters().head(model->trainable_size()) += Vec::Constant(model->trainable_size(), Scalar(0.05));  // break the symmetry
  Dataset data;
  data.resize(64, d);
  data.classes = 2;
  rng.fill_normal(data.X);
  for (Index i = 0; i < 64; ++i) data.y(i) = data.X(i, 0) * data.X(i, 1) > 0 ? 1 : 0;
  auto loss = ch3_std().make<Loss>("logistic", {}, testing::spec(d));
  auto r = check_gradient(*model, *loss, Batch::of(data));
  INFO(r.report);
  CHECK(r.ok);
  r = check_input_gradient(*model, Batch::of(data));
  INFO(r.report);
  CHECK(r.ok);
  CHECK((Eigen::Map<const Vec>(model->block("b").data(), 16) - b0).cwiseAbs().maxCoeff() == 0);
  // The readout hooks: output = hidden.post · aᵀ.
  Mat hidden, out(64, 1);
  model->hook("hidden.post", data.X, hidden);
  model->forward(data.X, out);
  CHECK((hidden * model->block("a").transpose() - out).cwiseAbs().maxCoeff() < 1e-4);
  CHECK_THROWS_WITH(ch3_pack().make<Model>("symmetric-relu-two-layer", {{"width", std::int64_t(30)}}, testing::spec(d)),
                    Catch::Contains("multiple of 4"));
}

TEST_CASE("symmetric-relu-two-layer: a batch larger than its block of products, and dL/dZ over Z, give the whole-batch bits") {
  // 9000 rows: two blocks of 4096 products and a part one. The reference is the model's formulas on whole n×4m
  // buffers (the products, then dL/dZ in a buffer of its own), as before the blocks.
  const Index d = 7, n = 9000, width = 24, half = width / 2;
  auto model = ch3_pack().make<Model>("symmetric-relu-two-layer", {{"width", std::int64_t(width)}, {"init_w", 0.9}}, testing::spec(d));
  Rng rng(17);
  model->init(rng);
  model->parameters().head(model->trainable_size()) += Vec::Constant(model->trainable_size(), Scalar(0.03));
  Mat X(n, d), out(n, 1), dout(n, 1);
  rng.fill_normal(X);
  rng.fill_normal(dout);
  const Mat W = model->block("W"), a = model->block("a"), b = model->block("b");
  Mat Z(n, width);
  Z.leftCols(half).noalias() = X * W.topRows(half).transpose();
  Z.rightCols(half).noalias() = X * W.bottomRows(half).transpose();
  Z.rowwise() -= b.row(0);
  const Mat H = Z.cwiseMax(Scalar(0));
  Mat P(n, width);
  P.array() = H.array().rowwise() * a.row(0).array();
  const Mat expected_out = (P.leftCols(half) + P.rightCols(half)).rowwise().sum();
  Mat dZ = dout * a;
  dZ.array() *= (Z.array() > Scalar(0)).cast<Scalar>();
  Vec expected(model->trainable_size());
  Eigen::Map<Mat> gW(expected.data(), width, d);
  gW.topRows(half).noalias() = dZ.leftCols(half).transpose() * X;
  gW.bottomRows(half).noalias() = dZ.rightCols(half).transpose() * X;
  Eigen::Map<Mat>(expected.data() + width * d, 1, width).noalias() = dout.transpose() * H;
  model->forward(X, out);
  CHECK((out.array() == expected_out.array()).all());
  Vec grad(model->trainable_size());
  model->backward(X, dout, grad);
  CHECK((grad.array() == expected.array()).all());
  model->backward(X, dout, grad);  // a second backward of the same forward: Z made again
  CHECK((grad.array() == expected.array()).all());
  Mat dX(n, d);
  model->input_gradient(X, dout, dX);
  Mat expected_dX(n, d);
  expected_dX.noalias() = dZ * W;
  INFO("largest difference " << (dX - expected_dX).cwiseAbs().maxCoeff());
  CHECK((dX.array() == expected_dX.array()).all());
}

TEST_CASE("step 1 with λ1 = 1/η1 through phased-gd: w_i = −η1 ℓ′(0) a_i Ĝ(w_i, b_i), w_i = −w_{i+2m}, and the probe's G") {
  const Index d = 10, n = 200, m = 5, N = 4 * m;
  const double eta = 0.3;
  Mat X;
  Dataset data = xor_like(n, d, 21, &X);
  const DataSpec spec = testing::spec(d);
  auto model = ch3_pack().make<Model>("symmetric-relu-two-layer", {{"width", std::int64_t(N)}, {"init_w", 0.5},
                                                                   {"init_a", 1.5}, {"bias", 0.2}}, spec);
  Rng init(3);
  model->init(init);
  const Mat W0 = model->block("W"), a0 = model->block("a"), b0 = model->block("b");
  auto hinge = ch3_std().make<Loss>("hinge", {}, spec);
  auto gd = ch3_std().make<Optimizer>("gd", {}, spec);
  auto trainer = ch3_pack().make<Trainer>("phased-gd", {{"phase_steps", std::vector<std::int64_t>{1}},
                                                        {"phase_lr", std::vector<double>{eta}},
                                                        {"phase_lambda_w", std::vector<double>{1 / eta}},
                                                        {"phase_lambda_a", std::vector<double>{1 / eta}},
                                                        {"phase_reset", std::vector<std::string>{"W,a"}},
                                                        {"l2", std::string("half")}}, spec);
  FeatureSet features;
  features["directions"] = Mat::Identity(2, d);  // e_1, e_2
  auto probe = ch3_pack().make<Probe>("gradient-features", {{"table", true}}, spec);
  Measurements at_init;
  std::vector<NamedAttack> attacks;
  StubDistribution dist(spec);
  testing::FakeTrainerHost host(*trainer, *model, *hinge, *gd, dist, data);
  host.on_probes = [&](Index step) {
    if (step != 0) return;
    ProbeInput in{*model, *hinge, data, data, features, attacks, step};
    probe->measure(in, at_init);
  };
  Rng train_rng(1);
  host.run(train_rng);
  const Mat W1 = model->block("W"), a1 = model->block("a");
  CHECK((model->block("b") - b0).cwiseAbs().maxCoeff() == 0);  // b never trains

  // Ĝ(w, b) = (1/n) Σ y x 1[wᵀx > b] in double, independently of the model.
  const Eigen::MatrixXd Xd = X.cast<double>();
  const VecD y = signed_labels(data);
  const Eigen::MatrixXd Z = Xd * W0.cast<double>().transpose() - Eigen::VectorXd::Ones(n) * b0.cast<double>();
  REQUIRE(Z.cwiseAbs().minCoeff() > 1e-4);  // no gate on the edge: float and double agree on every 1[·]
  const Eigen::MatrixXd gates = (Z.array() > 0).cast<double>();
  const Eigen::MatrixXd G = (gates.array().colwise() * y.array()).matrix().transpose() * Xd / double(n);  // N×d
  const Eigen::VectorXd a0d = a0.row(0).transpose().cast<double>();
  const Eigen::MatrixXd expected = eta * (a0d.asDiagonal() * G);  // −η ℓ′(0) a_i Ĝ_i, ℓ′(0) = −1
  const double scale = expected.cwiseAbs().maxCoeff();
  REQUIRE(scale > 1e-3);
  CHECK((W1.cast<double>() - expected).cwiseAbs().maxCoeff() < 1e-5 * scale);
  // a^(1) = −η ∇_a L = (η/n) Σ y ReLU(wᵀx − b).
  const Eigen::RowVectorXd a_expected = eta * (y.transpose() * Z.cwiseMax(0.0)) / double(n);
  CHECK((a1.cast<double>() - a_expected).cwiseAbs().maxCoeff() < 1e-5 * a_expected.cwiseAbs().maxCoeff());
  // Neurons i and i + 2m share (w, b) and have opposite a: exactly opposite first steps.
  CHECK((W1.topRows(2 * m) + W1.bottomRows(2 * m)).cwiseAbs().maxCoeff() == 0);
  // The negated twin (−w, −b, −a): G(−w, −b) = Ê[y x] − G(w, b), so w_{i+m} − w_i = −η a_i Ê[y x] exactly.
  const Eigen::RowVectorXd mean_yx = (y.transpose() * Xd) / double(n);
  for (Index i = 0; i < m; ++i) {
    const Eigen::RowVectorXd diff = (W1.row(i + m) - W1.row(i)).cast<double>();
    CHECK((diff + eta * double(a0(0, i)) * mean_yx).cwiseAbs().maxCoeff() < 1e-5 * scale);
  }
  // The probe's G at step 0: ‖w_i^(1)‖ = η |a_i| ‖G_i‖ and cos(w_i^(1), e_j) = sign(a_i) cos(G_i, e_j).
  REQUIRE(at_init.tables().size() == 1);
  const MatD& table = at_init.tables()[0].second.values;
  REQUIRE(table.rows() == N);
  REQUIRE(table.cols() == 3);
  for (Index i = 0; i < N; ++i) {
    const double norm = static_cast<double>(W1.row(i).norm());
    CHECK(norm == Approx(eta * std::abs(double(a0(0, i))) * table(i, 0)).epsilon(1e-4));
    for (Index j = 0; j < 2; ++j) {
      const double sa = a0(0, i) > 0 ? 1.0 : -1.0;
      CHECK(double(W1(i, j)) / norm == Approx(sa * table(i, 1 + j)).margin(1e-4));
    }
  }
}

TEST_CASE("ground-truth-net ch3-parity: y g*(x) >= 1 on structured parity (Lemma B.51), odd and even k") {
  Rng rng(7);
  const Index d = 40;
  const Mat M = orthonormal(d, rng);
  Mat D;
  const Dataset data = structured_parity(3000, d, 3, 5, 0.1, 0.2, M, rng, D);
  FeatureSet features{{"directions", D}};
  auto g = ch3_pack().make<Model>("ground-truth-net", {{"kind", std::string("ch3-parity")}, {"k", std::int64_t(5)}},
                                  testing::spec(d), 1, &features);
  CHECK(g->find_block("W")->rows == 3 * 3 * 6);  // 3r(k+1) neurons
  CHECK(g->trainable_size() == 0);
  const VecD yg = margins(*g, data);
  CHECK(yg.minCoeff() >= 1 - 1e-4);
  // Uniform parity (B.5.5: r = 1, p_A = 0, p_o = 1/2, k even): the same network with (−1)^{k−i} = (−1)^i.
  Mat D1;
  const Dataset uniform = structured_parity(2000, d, 1, 4, 0.0, 0.5, M, rng, D1);
  FeatureSet f1{{"directions", D1}};
  auto g1 = ch3_pack().make<Model>("ground-truth-net", {{"kind", std::string("ch3-parity")}, {"k", std::int64_t(4)}},
                                   testing::spec(d), 1, &f1);
  CHECK(margins(*g1, uniform).minCoeff() >= 1 - 1e-4);
  // With the wrong block size the bumps sit at the wrong counts.
  auto wrong = ch3_pack().make<Model>("ground-truth-net", {{"kind", std::string("ch3-parity")}, {"k", std::int64_t(3)}},
                                      testing::spec(d), 1, &features);
  CHECK(margins(*wrong, data).minCoeff() < 0.5);
  FeatureSet none{{"dictionary", M}};
  CHECK_THROWS_WITH(ch3_pack().make<Model>("ground-truth-net", {{"kind", std::string("ch3-parity")}, {"k", std::int64_t(5)}},
                                           testing::spec(d), 1, &none),
                    Catch::Contains("\"directions\"") && Catch::Contains("dictionary"));
  CHECK_THROWS_WITH(ch3_pack().make<Model>("ground-truth-net", {{"kind", std::string("ch3-parity")}}, testing::spec(d), 1, &features),
                    Catch::Contains("set k"));
}

TEST_CASE("ground-truth-net ch3-linear: y g* >= 1 with margin beta (Lemma B.26), trainable readout") {
  Rng rng(8);
  const Index d = 20, n = 2000;
  const double beta = 0.5;
  Mat w(1, d);
  rng.fill_normal(w);
  w /= w.norm();
  Mat X(n, d);
  std::vector<int> labels;
  for (Index i = 0; i < n; ++i) {
    Mat z(1, d);
    rng.fill_normal(z);
    z -= (z * w.transpose())(0, 0) * w;  // P⊥ z
    const int yi = rng.uniform() < 0.5 ? 1 : -1;
    X.row(i) = static_cast<Scalar>(yi * (beta + std::abs(rng.normal()))) * w + z;
    labels.push_back(yi);
  }
  const Dataset data = labelled(X, labels);
  FeatureSet features{{"direction", w}};
  auto g = ch3_pack().make<Model>("ground-truth-net", {{"kind", std::string("ch3-linear")}, {"margin", beta}},
                                  testing::spec(d), 1, &features);
  const VecD yg = margins(*g, data);
  CHECK(yg.minCoeff() >= 1 - 1e-4);
  CHECK(yg.minCoeff() < 1.1);  // the margin is tight: some sample has |u| ≈ 0
  auto readout = ch3_pack().make<Model>("ground-truth-net", {{"kind", std::string("ch3-linear")}, {"margin", beta},
                                                             {"trainable_readout", true}}, testing::spec(d), 1, &features);
  CHECK(readout->trainable_size() == 2);
  auto logistic = ch3_std().make<Loss>("logistic", {}, testing::spec(d));
  const auto r = check_gradient(*readout, *logistic, Batch::rows(data, 0, 64));
  INFO(r.report);
  CHECK(r.ok);
  FeatureSet empty{{"directions", w}};
  CHECK_THROWS_WITH(ch3_pack().make<Model>("ground-truth-net", {{"kind", std::string("ch3-linear")}}, testing::spec(d), 1, &empty),
                    Catch::Contains("\"direction\""));
}

TEST_CASE("ground-truth-net ch2-bump reproduces the labels with y g* = 1 exactly (Lemma 2.5)") {
  struct Case {
    std::map<std::string, Value> data;
    double sigma, mu;
    std::string label;
  };
  const std::vector<Case> cases = {
      // parity mixture, k = 5, p_o = ½: σ̃² = D/4, μ = k/2 (the g2 bumps: g1's biases hit 0).
      {{{"dim", std::int64_t(60)}, {"patterns", std::int64_t(20)}}, std::sqrt(20.0 / 4), 2.5, "parity"},
      // independent, threshold labels, μ = 5·0.45 = 2.25 (the g1 bumps).
      {{{"dim", std::int64_t(30)}, {"patterns", std::int64_t(20)}, {"model", std::string("independent")},
        {"p_relevant", 0.45}, {"label", std::string("threshold")}}, std::sqrt(5 * 0.45 * 0.55 + 15 * 0.25), 2.25, "threshold"},
      // the interval experiment: k = 30, p_A = 2/3, counts in [20, 30] positive.
      {{{"dim", std::int64_t(120)}, {"patterns", std::int64_t(100)}, {"relevant", std::int64_t(30)},
        {"model", std::string("independent")}, {"p_relevant", 2.0 / 3}, {"label", std::string("interval")}},
       std::sqrt(30 * 2.0 / 9 + 70 * 0.25), 20.0, "interval"},
  };
  for (const auto& c : cases) {
    auto dist = ch3_pack().make<Distribution>("dictionary-patterns", c.data, {});
    Dataset data;
    Rng rng(5);
    dist->sample(3000, Split::Train, rng, data);
    FeatureSet features = dist->features();
    const int k = static_cast<int>(std::lround(double(features.at("relevant").sum())));
    auto g = ch3_pack().make<Model>("ground-truth-net", {{"kind", std::string("ch2-bump")}, {"label", c.label},
                                                         {"sigma_tilde", c.sigma}, {"mu", c.mu}}, dist->spec(), 1, &features);
    INFO("label " << c.label);
    CHECK(g->find_block("W")->rows == 3 * (k + 1));
    const VecD yg = margins(*g, data);
    CHECK((yg.array() - 1).abs().maxCoeff() < 1e-3);  // y = g*(x) on every sample
    // The lemma's bounds: |a| <= 32k, 1/(32k) <= |b| <= 1/2, w* = σ̃ v/(4k), |<w*, x> + b*| <= 1.
    const Mat a = g->block("a"), b = g->block("b"), W = g->block("W");
    CHECK(a.cwiseAbs().maxCoeff() <= 32 * k);
    CHECK(b.cwiseAbs().minCoeff() >= 1.0 / (32 * k) - 1e-6);
    CHECK(b.cwiseAbs().maxCoeff() <= 0.5 + 1e-6);
    const Mat w = static_cast<Scalar>(c.sigma / (4 * k)) * features.at("ground_truth");
    CHECK((W.row(0) - w).cwiseAbs().maxCoeff() < 1e-5);
    Mat pre;
    g->hook("hidden.pre", data.X, pre);
    CHECK(pre.cwiseAbs().maxCoeff() <= 1 + 1e-5);
    // A wrong μ moves every count off its bump's peak (by 0.3: a shift of ½ would land g2 on the
    // mirror point of its bump, where the value is 1 again).
    auto off = ch3_pack().make<Model>("ground-truth-net", {{"kind", std::string("ch2-bump")}, {"label", c.label},
                                                           {"sigma_tilde", c.sigma}, {"mu", c.mu + 0.3}}, dist->spec(), 1, &features);
    CHECK((margins(*off, data).array() - 1).abs().maxCoeff() > 0.3);
  }
  // σ̃ and μ from a "normalisation" feature; without it, the error names it.
  auto dist = ch3_pack().make<Distribution>("dictionary-patterns", {{"dim", std::int64_t(60)}, {"patterns", std::int64_t(20)}}, {});
  Dataset data;
  Rng rng(6);
  dist->sample(500, Split::Train, rng, data);
  FeatureSet features = dist->features();
  // dictionary-patterns exposes [σ̃, μ] = [√(D/4), k/2] itself.
  REQUIRE(features.count("normalisation") == 1);
  CHECK(features.at("normalisation")(0, 0) == Approx(std::sqrt(5.0)).epsilon(1e-6));
  CHECK(features.at("normalisation")(0, 1) == Approx(2.5).epsilon(1e-6));
  FeatureSet without = features;
  without.erase("normalisation");
  CHECK_THROWS_WITH(ch3_pack().make<Model>("ground-truth-net", {{"kind", std::string("ch2-bump")}}, dist->spec(), 1, &without),
                    Catch::Contains("normalisation") && Catch::Contains("sigma_tilde"));
  auto g = ch3_pack().make<Model>("ground-truth-net", {{"kind", std::string("ch2-bump")}}, dist->spec(), 1, &features);
  CHECK((margins(*g, data).array() - 1).abs().maxCoeff() < 1e-3);
}

TEST_CASE("ground-truth-net ch3-mixture: small hinge loss on XOR Gaussian mixture data (Lemma B.34)") {
  Rng rng(9);
  const Index d = 400, n = 4000;
  const double tau = 2;
  const Mat M = orthonormal(d, rng);
  // xor4 (Assumption B.36): μ1 = −μ2 = √d M_0, μ3 = −μ4 = √d M_1, σ = 1 per coordinate; y = +1 on 1, 2.
  Mat D(4, d);
  D << M.row(0), -M.row(0), M.row(1), -M.row(1);
  const double cluster_y[4] = {1, 1, -1, -1};
  Mat X(n, d);
  std::vector<int> labels;
  for (Index i = 0; i < n; ++i) {
    const int c = static_cast<int>(rng.integer(0, 3));
    Mat noise(1, d);
    rng.fill_normal(noise);
    X.row(i) = static_cast<Scalar>(std::sqrt(double(d))) * D.row(c) + noise;
    labels.push_back(static_cast<int>(cluster_y[c]));
  }
  const Dataset data = labelled(X, labels);
  FeatureSet features{{"directions", D}, {"cluster_labels", (Mat(1, 4) << 1, 1, -1, -1).finished()}};
  auto g = ch3_pack().make<Model>("ground-truth-net", {{"kind", std::string("ch3-mixture")}, {"tau", tau}, {"sigma_bplus", 1.0}},
                                  testing::spec(d), 1, &features);
  auto hinge = ch3_std().make<Loss>("hinge", {}, testing::spec(d));
  const double loss = hinge->evaluate(*g, Batch::of(data));
  const double bound = 3 / std::pow(double(d), tau) + 4 / (std::pow(double(d), 0.9 * tau - 1) * std::sqrt(tau * std::log(double(d))));
  CHECK(loss <= bound);
  CHECK((margins(*g, data).array() > 0).all());
  // Labels as a parameter; a wrong count is refused.
  FeatureSet bare{{"directions", D}};
  auto g2 = ch3_pack().make<Model>("ground-truth-net", {{"kind", std::string("ch3-mixture")}, {"tau", tau},
                                                        {"cluster_labels", std::vector<double>{1, 1, -1, -1}}}, testing::spec(d), 1, &bare);
  CHECK(hinge->evaluate(*g2, Batch::of(data)) == Approx(loss));
  CHECK_THROWS_WITH(ch3_pack().make<Model>("ground-truth-net", {{"kind", std::string("ch3-mixture")}}, testing::spec(d), 1, &bare),
                    Catch::Contains("cluster_labels"));
  CHECK_THROWS_WITH(ch3_pack().make<Model>("ground-truth-net", {{"kind", std::string("ch3-mixture")},
                                                                {"cluster_labels", std::vector<double>{1, -1}}}, testing::spec(d), 1, &bare),
                    Catch::Contains("one y_(j) per direction"));
  // Built from the features: none, and it says so.
  CHECK_THROWS_WITH(ch3_pack().make<Model>("ground-truth-net", {{"kind", std::string("ch3-mixture")}}, testing::spec(d)),
                    Catch::Contains("features"));
}

TEST_CASE("gradient-features: G of random neurons lies in the cone of D when y = sign(<D, x>), random labels give ~0") {
  Rng rng(12);
  const Index d = 10, n = 20000, width = 200, m = width / 4;
  Mat u(1, d);
  rng.fill_normal(u);
  u /= u.norm();
  Mat X(n, d);
  rng.fill_normal(X);
  std::vector<int> signal, noise;
  for (Index i = 0; i < n; ++i) {
    signal.push_back((X.row(i) * u.transpose())(0, 0) > 0 ? 1 : -1);
    noise.push_back(rng.uniform() < 0.5 ? 1 : -1);
  }
  const Dataset with = labelled(X, signal), without = labelled(X, noise);
  const DataSpec spec = testing::spec(d);
  auto model = ch3_pack().make<Model>("symmetric-relu-two-layer", {{"width", std::int64_t(width)}, {"init_w", 1 / std::sqrt(double(d))},
                                                                   {"bias", 0.1}}, spec);
  Rng init(2);
  model->init(init);
  auto hinge = ch3_std().make<Loss>("hinge", {}, spec);
  FeatureSet features{{"directions", u}};
  std::vector<NamedAttack> attacks;
  auto probe = ch3_pack().make<Probe>("gradient-features", {{"gamma", 0.1}, {"norm_threshold", 0.05}}, spec);
  Measurements out;
  probe->measure(ProbeInput{*model, *hinge, with, with, features, attacks, 0}, out);
  // G(w, b) = Ê[|<u, x>| 1[wᵀx > b]] u + (small, odd in b): inside the cone for nearly every neuron.
  CHECK(scalar(out, "in_cone") >= 0.9);
  CHECK(scalar(out, "cos.0") > 0.99);
  CHECK(scalar(out, "p.0.pos") == Approx(0.5).margin(0.06));  // half the neurons have b > 0
  CHECK(scalar(out, "p.0.neg") == Approx(0.5).margin(0.06));
  CHECK(scalar(out, "p_min") >= 0.44);
  // ⟨G, u⟩ > 0 for every neuron, so the nice ones (Def. B.4) are those with a_i > 0 among i ≤ 2m: about m/2 per
  // sign, at least m p/4 (Lemma 3.13).
  const double p = scalar(out, "p_min");
  CHECK(scalar(out, "nice.0.pos") >= m * p / 4);
  CHECK(scalar(out, "nice.0.neg") >= m * p / 4);
  // Exactly one of (i, i + m) has a > 0 (a_{i+m} = −a_i), so together at most m, and about m when all are in the cone;
  // ignoring sign(a_i) would count 2m.
  CHECK(scalar(out, "nice.0.pos") + scalar(out, "nice.0.neg") <= m);
  CHECK(scalar(out, "nice.0.pos") + scalar(out, "nice.0.neg") >= 0.8 * m);
  CHECK(scalar(out, "threshold") == Approx(0.05));
  // Random labels: G is sampling noise, far below B_G and pointing nowhere.
  Measurements control;
  probe->measure(ProbeInput{*model, *hinge, without, without, features, attacks, 0}, control);
  CHECK(scalar(control, "in_cone") <= 0.02);
  CHECK(scalar(control, "p_min") <= 0.02);
  CHECK(scalar(control, "norm_median") < 0.2 * scalar(out, "norm_median"));
  // B_G relative to the median ‖G‖; the missing feature is named.
  auto relative = ch3_pack().make<Probe>("gradient-features", {{"norm_threshold", 0.5}, {"norm_mode", std::string("median")}}, spec);
  Measurements rel;
  relative->measure(ProbeInput{*model, *hinge, with, with, features, attacks, 0}, rel);
  CHECK(scalar(rel, "threshold") == Approx(0.5 * scalar(rel, "norm_median")));
  FeatureSet other{{"means", u}};
  Measurements ignored;
  CHECK_THROWS_WITH(probe->measure(ProbeInput{*model, *hinge, with, with, other, attacks, 0}, ignored),
                    Catch::Contains("\"directions\"") && Catch::Contains("means"));
}

TEST_CASE("neuron-map: x = cos with v, y along the top principal direction orthogonal to v") {
  Rng rng(13);
  const Index d = 12, width = 16;
  auto model = ch3_pack().make<Model>("symmetric-relu-two-layer", {{"width", std::int64_t(width)}}, testing::spec(d));
  const Mat M = orthonormal(d, rng);
  const Mat v = M.row(0), q = M.row(1);
  MatMap W = model->block("W");
  MatMap a = model->block("a");
  W.row(0) = 3 * v;
  W.row(1) = -2 * v;
  for (Index i = 2; i < width; ++i) {
    const Scalar s = i % 2 == 0 ? Scalar(1) : Scalar(-1);
    W.row(i) = s * (Scalar(0.6) * v + Scalar(0.8) * q) * static_cast<Scalar>(1 + i);
  }
  for (Index i = 0; i < width; ++i) a(0, i) = i < 8 ? Scalar(1) : Scalar(-1);
  FeatureSet features{{"ground_truth", Mat(Scalar(5) * v)}};
  Dataset empty;
  std::vector<NamedAttack> attacks;
  auto hinge = ch3_std().make<Loss>("hinge", {}, testing::spec(d));
  auto probe = ch3_pack().make<Probe>("neuron-map", {}, testing::spec(d));
  Measurements out;
  probe->measure(ProbeInput{*model, *hinge, empty, empty, features, attacks, 0}, out);
  REQUIRE(out.tables().size() == 1);
  const Table& t = out.tables()[0].second;
  CHECK(out.tables()[0].first == "map");
  CHECK(t.col_names == std::vector<std::string>{"x", "y", "a_sign", "norm"});
  REQUIRE(t.values.rows() == width + 2);  // the neurons, then ±v at (±1, 0)
  CHECK(t.row_names.back() == "-v");
  CHECK(t.values(width, 0) == 1);
  CHECK(t.values(width + 1, 0) == -1);
  CHECK(t.values(width + 1, 2) == 0);
  CHECK(t.values(0, 0) == Approx(1).margin(1e-5));
  CHECK(t.values(1, 0) == Approx(-1).margin(1e-5));
  CHECK(std::abs(t.values(0, 1)) < 1e-5);
  CHECK(t.values(0, 3) == Approx(3).epsilon(1e-5));
  for (Index i = 2; i < width; ++i) {
    const double s = i % 2 == 0 ? 1.0 : -1.0;
    CHECK(t.values(i, 0) == Approx(0.6 * s).margin(1e-5));
    CHECK(std::abs(t.values(i, 1)) == Approx(0.8).margin(1e-5));
    CHECK(t.values(i, 2) == (i < 8 ? 1.0 : -1.0));
  }
  CHECK(scalar(out, "in_plane") == Approx(1).margin(1e-5));
  FeatureSet wrong{{"directions", v}};
  Measurements ignored;
  CHECK_THROWS_WITH(probe->measure(ProbeInput{*model, *hinge, empty, empty, wrong, attacks, 0}, ignored),
                    Catch::Contains("\"ground_truth\""));
}

TEST_CASE("neuron-clusters: two opposed tight clusters, and random directions that form none") {
  Rng rng(17);
  const Index d = 200, width = 24;
  auto model = ch3_pack().make<Model>("symmetric-relu-two-layer", {{"width", std::int64_t(width)}}, testing::spec(d));
  const Mat M = orthonormal(d, rng);
  const Mat v = M.row(0);
  MatMap W = model->block("W");
  // 16 neurons along +v, 8 along −v, each with a small orthogonal part of its own (cos with ±v: 0.96).
  for (Index i = 0; i < width; ++i) {
    const Scalar s = i < 16 ? Scalar(1) : Scalar(-1);
    W.row(i) = (s * Scalar(0.96) * v + Scalar(0.28) * M.row(1 + i)) * static_cast<Scalar>(1 + i);
  }
  Dataset empty;
  FeatureSet none;
  std::vector<NamedAttack> attacks;
  auto hinge = ch3_std().make<Loss>("hinge", {}, testing::spec(d));
  auto probe = ch3_pack().make<Probe>("neuron-clusters", {}, testing::spec(d));
  Measurements out;
  probe->measure(ProbeInput{*model, *hinge, empty, empty, none, attacks, 0}, out);
  CHECK(scalar(out, "within") == Approx(0.96 * 0.96).margin(1e-4));  // ⟨u_i, u_j⟩ = 0.96² in a cluster
  // The centres: ±0.96 v plus the mean of their members' orthogonal parts (16 and 8 of them, orthonormal).
  const double plus = 0.9216 + 0.0784 / 16, minus = 0.9216 + 0.0784 / 8;
  CHECK(scalar(out, "between") == Approx(-0.9216 / std::sqrt(plus * minus)).margin(1e-4));
  CHECK(scalar(out, "smallest") == Approx(8.0 / 24));
  REQUIRE(out.tables().size() == 1);
  const Table& map = out.tables()[0].second;
  CHECK(map.col_names == std::vector<std::string>{"x", "y", "cluster", "norm"});
  REQUIRE(map.values.rows() == width);
  for (Index i = 1; i < width; ++i) CHECK((map.values(i, 2) == map.values(0, 2)) == (i < 16));
  CHECK(map.values(3, 3) == Approx(4).epsilon(1e-5));
  CHECK(std::abs(map.values(0, 0) - map.values(20, 0)) > 1.5);  // the first map axis separates ±v

  // Gaussian neurons in d = 200: no clusters (|cos| ~ 1/√d).
  for (Index i = 0; i < width; ++i) {
    for (Index j = 0; j < d; ++j) W(i, j) = static_cast<Scalar>(rng.normal());
  }
  Measurements random;
  probe->measure(ProbeInput{*model, *hinge, empty, empty, none, attacks, 0}, random);
  CHECK(std::abs(scalar(random, "within")) < 0.1);
  CHECK(scalar(random, "between") > -0.6);
  auto five = ch3_pack().make<Probe>("neuron-clusters", {{"clusters", std::int64_t(25)}}, testing::spec(d));
  Measurements ignored;
  CHECK_THROWS_WITH(five->measure(ProbeInput{*model, *hinge, empty, empty, none, attacks, 0}, ignored),
                    Catch::Contains("24 neurons cannot form 25 clusters"));
}

namespace {

// Blocks W and a of a symmetric-ReLU network (the same init every call) after `trainer` runs on XOR-like data.
std::pair<Mat, Mat> after_training(const std::string& trainer_name, const std::map<std::string, Value>& params, Mat* W0 = nullptr) {
  const Index d = 8, n = 150;
  Dataset data = xor_like(n, d, 4);
  const DataSpec spec = testing::spec(d);
  auto model = ch3_pack().make<Model>("symmetric-relu-two-layer", {{"width", std::int64_t(16)}, {"init_w", 0.5},
                                                                   {"init_a", 1.5}, {"bias", 0.2}}, spec);
  Rng init(3);
  model->init(init);
  if (W0) *W0 = model->block("W");
  auto hinge = ch3_std().make<Loss>("hinge", {}, spec);
  auto gd = ch3_std().make<Optimizer>("gd", {}, spec);
  auto trainer = ch3_pack().make<Trainer>(trainer_name, params, spec);
  StubDistribution dist(spec);
  testing::FakeTrainerHost host(*trainer, *model, *hinge, *gd, dist, data);
  Rng train_rng(1);
  host.run(train_rng);
  return {model->block("W"), model->block("a")};
}

}  // namespace

TEST_CASE("phased-gd: phase_reset_keep leaves the fraction ε of the reset block, W = εW0 − η∇L") {
  const std::map<std::string, Value> exact = {{"phase_steps", std::vector<std::int64_t>{1}},
                                              {"phase_lr", std::vector<double>{0.3}},
                                              {"phase_reset", std::vector<std::string>{"W"}}};
  auto kept = exact;
  kept["phase_reset_keep"] = std::vector<double>{0.25};
  Mat W0;
  const Mat W_exact = after_training("phased-gd", exact, &W0).first;
  const Mat W_kept = after_training("phased-gd", kept).first;
  REQUIRE(W_exact.cwiseAbs().maxCoeff() > Scalar(1e-3));
  CHECK((W_kept - W_exact - Scalar(0.25) * W0).cwiseAbs().maxCoeff() < Scalar(1e-6));
  auto no_reset = kept;
  no_reset["phase_reset"] = std::vector<std::string>{"none"};
  CHECK_THROWS_WITH(after_training("phased-gd", no_reset), Catch::Contains("resets no block"));
}

TEST_CASE("readout: phases = N snapshots after the first N listed phases, bit for bit as lists of N phases") {
  const std::map<std::string, Value> two = {{"phase_steps", std::vector<std::int64_t>{1, 1}},
                                            {"phase_lr", std::vector<double>{0.3, 0.5}},
                                            {"phase_reset", std::vector<std::string>{"W", "W,a"}},
                                            {"readout_steps", std::int64_t(5)}};
  auto first_of_two = two;
  first_of_two["phases"] = std::int64_t(1);
  const std::map<std::string, Value> one = {{"phase_steps", std::vector<std::int64_t>{1}},
                                            {"phase_lr", std::vector<double>{0.3}},
                                            {"phase_reset", std::vector<std::string>{"W"}},
                                            {"readout_steps", std::int64_t(5)}};
  const auto [W_a, a_a] = after_training("readout", first_of_two);
  const auto [W_b, a_b] = after_training("readout", one);
  CHECK(W_a == W_b);
  CHECK(a_a == a_b);
  auto none = two;
  none["phases"] = std::int64_t(0);  // random features: the init's first layer
  Mat W0;
  const Mat W_rf = after_training("readout", none, &W0).first;
  CHECK(W_rf == W0);
  auto too_many = two;
  too_many["phases"] = std::int64_t(3);
  CHECK_THROWS_WITH(after_training("readout", too_many), Catch::Contains("at most the listed"));
}

TEST_CASE("readout: a is the best primal iterate, its duality gap recorded, and the readout stops at readout_tolerance") {
  const Index d = 8, n = 150;
  const Dataset data = xor_like(n, d, 4);
  const DataSpec spec = testing::spec(d);
  // What one readout run recorded, and the readout a it left.
  struct Readout {
    std::vector<double> loss, gap, epochs;
    Mat a;
  };
  auto run = [&](double tolerance, Index epochs) {
    auto model = ch3_pack().make<Model>("symmetric-relu-two-layer", {{"width", std::int64_t(16)}, {"init_w", 0.5},
                                                                     {"init_a", 1.5}, {"bias", 0.2}}, spec);
    Rng init(3);
    model->init(init);
    auto hinge = ch3_std().make<Loss>("hinge", {}, spec);
    auto gd = ch3_std().make<Optimizer>("gd", {}, spec);
    auto trainer = ch3_pack().make<Trainer>(
        "readout", {{"phase_steps", std::vector<std::int64_t>{1}}, {"phase_lr", std::vector<double>{0.3}},
                    {"phase_reset", std::vector<std::string>{"W"}}, {"readout_steps", epochs},
                    {"readout_lambda", 1e-3}, {"readout_tolerance", tolerance}, {"eval_every", std::int64_t(1)}},
        spec);
    StubDistribution dist(spec);
    Dataset train = data;
    testing::FakeTrainerHost host(*trainer, *model, *hinge, *gd, dist, train);
    Rng train_rng(1);
    host.run(train_rng);
    return Readout{host.values("train.loss"), host.values("train.readout_gap"), host.values("train.readout_epochs"),
                   model->block("a")};
  };
  const Readout full = run(0.0, 40);
  // train.loss is the kept iterate's primal, one a step (eval_every = 1), after the reset step's loss.
  REQUIRE(full.loss.size() == 41);
  REQUIRE(full.gap.size() == 40);
  for (std::size_t t = 2; t < full.loss.size(); ++t) CHECK(full.loss[t] <= full.loss[t - 1]);  // never worse
  for (std::size_t t = 1; t < full.gap.size(); ++t) CHECK(full.gap[t] <= full.gap[t - 1] + 1e-12);  // D rises, P falls
  CHECK(full.gap.front() <= 1.0);
  CHECK(full.gap.back() >= 0.0);
  CHECK(full.gap.back() < full.gap.front());
  REQUIRE(!full.epochs.empty());
  CHECK(full.epochs.back() == 40);
  // A tolerance the first epoch already meets (the gap is at most 1): one epoch, then a stays as it is.
  const Readout stopped = run(1.0, 40);
  const Readout one = run(0.0, 1);
  REQUIRE(!stopped.epochs.empty());
  CHECK(stopped.epochs.back() == 1);
  CHECK(stopped.a == one.a);
  CHECK(stopped.loss.back() == one.loss.back());
}

TEST_CASE("pattern-cosine: a neuron shrunk below float's squared range keeps a cosine in [-1, 1], a zero one has 0") {
  Rng rng(19);
  const Index d = 12, width = 4;
  auto model = ch3_pack().make<Model>("symmetric-relu-two-layer", {{"width", std::int64_t(width)}}, testing::spec(d));
  const Mat M = orthonormal(d, rng);
  const Mat v = M.row(0), q = M.row(1);
  MatMap W = model->block("W");
  W.row(0) = Scalar(0.6) * v + Scalar(0.8) * q;
  W.row(1) = Scalar(1e-22) * v;  // ‖w‖² = 1e-44: zero (or denormal) in float, the case weight decay reached
  W.row(2).setZero();
  W.row(3) = Scalar(-2e-21) * (Scalar(0.6) * v + Scalar(0.8) * q);
  FeatureSet features{{"ground_truth", Mat(Scalar(5) * v)}};
  Dataset empty;
  std::vector<NamedAttack> attacks;
  auto hinge = ch3_std().make<Loss>("hinge", {}, testing::spec(d));
  auto probe = ch3_pack().make<Probe>("pattern-cosine", {}, testing::spec(d));
  Measurements out;
  probe->measure(ProbeInput{*model, *hinge, empty, empty, features, attacks, 0}, out);
  CHECK(scalar(out, "max") == Approx(1).margin(1e-6));       // the tiny neuron along v
  CHECK(scalar(out, "max_neg") == Approx(0.6).margin(1e-6));  // the tiny neuron opposite, at 0.6
  CHECK(scalar(out, "median_abs") == Approx(0.6).margin(1e-6));  // |cos| = 0.6, 1, 0, 0.6
}
