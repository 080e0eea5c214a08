// The fourier-icl pack's chapter-4 components on their own: the modular-sum table and its split, the
// maximum-margin construction hitting γ* exactly (Thm. 4.9) and γ* bounding every network over the full table
// (Thm. 4.9: no network does better), the single-neuron class-weighted margin γ*·cos(Σθ_j − θ_w) (Lem. 4.10), the network's gradients, and the
// probes on networks whose spectra are known. The tags A4.x, A5.x and D9.x in the test names label our checks
// (described beside each); the dissertation's results are cited by their own numbers.
#include "ch4-modular-arithmetic/fourier_construction.hpp"
#include "ch4-modular-arithmetic/modular_margins.hpp"
#include "ch4-modular-arithmetic/modular_sum.hpp"
#include "ch4-modular-arithmetic/modular_table.hpp"
#include "ch5-in-context-learning/icl_theory.hpp"
#include "ch5-in-context-learning/multihead_relu_attention.hpp"
#include "ch9-gemfilter/eviction_rules.hpp"
#include "ch9-gemfilter/gemfilter.hpp"
#include "common/transformer.hpp"

#include <featurelab/error.hpp>
#include <featurelab/gradient_check.hpp>
#include <featurelab/model_comparison.hpp>
#include <featurelab/probe.hpp>
#include <featurelab/regularizer.hpp>
#include <featurelab/testing.hpp>
#include <featurelab/threads.hpp>

#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <set>
#include <vector>

using namespace featurelab;
using namespace featurelab::fourier_icl_pack;

namespace {

testing::Harness& pack() { return testing::pack(FOURIER_ICL_PLUGIN); }
testing::Harness& std_pack() { return testing::pack(FEATURELAB_STD_PLUGIN); }

DataSpec modular_spec(int k, int p) {
  DataSpec s;
  s.dim = static_cast<Index>(k) * p;
  s.classes = p;
  return s;
}

double metric(const Measurements& m, const std::string& name) {
  for (const auto& [n, v] : m.scalars()) {
    if (n == name) return v;
  }
  FAIL("no metric " << name);
  return 0;
}

}  // namespace

TEST_CASE("modular-sum: the whole table of p^k tuples split once into train and test, labels (Σa) mod p") {
  auto data = pack().make<Distribution>("modular-sum", {{"k", std::int64_t(3)}, {"p", std::int64_t(7)}});
  REQUIRE(data->available(Split::Train) == 171);  // floor(343/2)
  REQUIRE(data->available(Split::Test) == 172);
  Rng rng(1);
  Dataset train, test;
  data->sample(171, Split::Train, rng, train);
  data->sample(172, Split::Test, rng, test);
  std::set<std::vector<int>> seen;
  for (const Dataset* d : {&train, &test}) {
    REQUIRE(d->dim() == 21);
    for (Index i = 0; i < d->size(); ++i) {
      std::vector<int> a;
      for (int j = 0; j < 3; ++j) {
        Index hot = 0;
        CHECK(d->X.row(i).segment(j * 7, 7).sum() == 1);
        d->X.row(i).segment(j * 7, 7).maxCoeff(&hot);
        a.push_back(static_cast<int>(hot));
        CHECK(d->meta.at("a" + std::to_string(j + 1))(i) == hot);
      }
      CHECK(d->y(i) == (a[0] + a[1] + a[2]) % 7);
      seen.insert(a);
    }
  }
  CHECK(seen.size() == 343);  // disjoint splits covering D_p
  CHECK_THROWS_WITH(pack().make<Distribution>("modular-sum", {{"p", std::int64_t(15)}}), Catch::Contains("not an odd prime"));
  CHECK_THROWS_WITH(data->sample(172, Split::Train, rng, train), Catch::Contains("171"));
}

TEST_CASE("modular-sum with train_fraction 1: both splits are the whole table D_p (Def. 4.1, Thm. 4.9)") {
  auto data = pack().make<Distribution>("modular-sum", {{"k", std::int64_t(2)}, {"p", std::int64_t(5)}, {"train_fraction", 1.0}});
  REQUIRE(data->available(Split::Train) == 25);
  REQUIRE(data->available(Split::Test) == 25);
  Rng rng(1);
  Dataset train, test;
  data->sample(25, Split::Train, rng, train);
  data->sample(25, Split::Test, rng, test);
  std::set<std::pair<int, int>> seen;
  for (Index i = 0; i < 25; ++i) {
    seen.insert({static_cast<int>(train.meta.at("a1")(i)), static_cast<int>(train.meta.at("a2")(i))});
    CHECK(train.X.row(i) == test.X.row(i));
  }
  CHECK(seen.size() == 25);
}

TEST_CASE("neuron-norm: λ‖θ‖_{2,k+1} (Def. 4.1) and its (k+1)-th power, their gradients against central differences") {
  const int k = 3, p = 5;
  const DataSpec spec = modular_spec(k, p);
  auto model = pack().make<Model>("poly-one-hidden-layer", {{"width", std::int64_t(6)}, {"init_scale", 0.5}}, spec);
  Rng rng(3);
  model->init(rng);
  const MatD U = model->block("U").cast<double>(), W = model->block("W").cast<double>();
  double P = 0;  // Σ_i ‖(u_{i,1..k}, w_i)‖^{k+1}, by hand
  for (Index i = 0; i < 6; ++i) P += std::pow(U.row(i).squaredNorm() + W.row(i).squaredNorm(), (k + 1) / 2.0);
  REQUIRE(table_margins(U, W, k, p).norm_power == Approx(P).epsilon(1e-12));  // the probe's denominator is the same
  Dataset d;
  pack().make<Distribution>("modular-sum", {{"k", std::int64_t(k)}, {"p", std::int64_t(p)}})->sample(8, Split::Train, rng, d);
  const Batch batch = Batch::of(d);
  for (const auto& [exponent, expected] : {std::pair{"norm", 0.3 * std::pow(P, 1.0 / (k + 1))}, std::pair{"power", 0.3 * P}}) {
    INFO("exponent " << exponent);
    auto reg = pack().make<Regularizer>("neuron-norm", {{"lambda", 0.3}, {"exponent", std::string(exponent)}}, spec);
    reg->bind(*model);
    Vec grad = Vec::Zero(model->trainable_size());
    CHECK(static_cast<double>(reg->add_penalty(*model, batch, 0, grad)) == Approx(expected).epsilon(1e-5));
    CHECK(static_cast<double>(reg->penalty(*model, batch, 0)) == Approx(expected).epsilon(1e-5));
    const double h = kDouble ? 1e-6 : 1e-2;
    double worst = 0;
    for (Index j = 0; j < model->trainable_size(); ++j) {
      const Scalar keep = model->parameters()(j);
      model->parameters()(j) = static_cast<Scalar>(keep + h);
      const double up = reg->penalty(*model, batch, 0);
      model->parameters()(j) = static_cast<Scalar>(keep - h);
      const double down = reg->penalty(*model, batch, 0);
      model->parameters()(j) = keep;
      worst = std::max(worst, std::abs(static_cast<double>(grad(j)) - (up - down) / (2 * h)));
    }
    CHECK(worst / static_cast<double>(grad.cwiseAbs().maxCoeff()) < (kDouble ? 1e-6 : 1e-2));
  }
  // Homogeneity: scaling θ by α scales the norm by α (Def. 4.4's normalisation h(θ/‖θ‖_{2,k+1})).
  auto reg = pack().make<Regularizer>("neuron-norm", {{"lambda", 1.0}}, spec);
  reg->bind(*model);
  const double before = reg->penalty(*model, batch, 0);
  model->parameters() *= Scalar(2);
  CHECK(static_cast<double>(reg->penalty(*model, batch, 0)) == Approx(2 * before).epsilon(1e-5));
  auto other = std_pack().make<Model>("two-layer", {{"width", std::int64_t(5)}, {"second_layer", std::string("per-class")}}, spec);
  CHECK_THROWS_WITH(reg->bind(*other), Catch::Contains("blocks U (m×kp) and W (m×p)"));
}

TEST_CASE("fourier-max-margin construction: 2^{2k-2}(p-1) equal-norm neurons, f[y] and f[c≠y] constant, margin = γ* exactly (Thm. 4.9)") {
  const std::map<std::pair<int, int>, double> reference = {{{2, 5}, 3.042903e-2},  {{3, 7}, 4.464286e-3},
                                                           {{3, 11}, 1.704545e-3}, {{4, 5}, 3.394113e-3},
                                                           {{2, 23}, 2.579565e-3}, {{3, 97}, 2.013531e-5},
                                                           {{4, 47}, 1.024086e-5}, {{5, 23}, 1.193409e-5}};
  for (const auto& [kp, value] : reference) CHECK(gamma_star(kp.first, kp.second) == Approx(value).epsilon(1e-6));
  for (auto [k, p] : std::vector<std::pair<int, int>>{{2, 5}, {2, 7}, {2, 11}, {3, 5}, {3, 7}, {3, 11}, {4, 5}, {2, 23}}) {
    INFO("k = " << k << ", p = " << p);
    MatD U, W;
    max_margin_construction(k, p, U, W);
    REQUIRE(U.rows() == (Index(1) << (2 * k - 2)) * (p - 1));
    const VecD norms2 = U.rowwise().squaredNorm() + W.rowwise().squaredNorm();
    CHECK((norms2.array() - (k + 1) * p / 2.0).abs().maxCoeff() < 1e-9);
    // f over a few tuples: 2^{k−1}k!(p−1)/2 at y, −2^{k−1}k!/2 elsewhere.
    const double scale = std::pow(2.0, k - 1) * std::tgamma(k + 1.0);
    for (Index t = 0; t < std::min<Index>(50, table_size(k, p, 1 << 30)); ++t) {
      std::vector<int> a(static_cast<std::size_t>(k));
      digits(t * 7 % table_size(k, p, 1 << 30), k, p, a.data());
      VecD z = VecD::Zero(U.rows());
      int sum = 0;
      for (int j = 0; j < k; ++j) {
        z += U.col(j * p + a[static_cast<std::size_t>(j)]);
        sum += a[static_cast<std::size_t>(j)];
      }
      const VecD f = W.transpose() * z.array().pow(k).matrix();
      for (int c = 0; c < p; ++c) {
        CHECK(f(c) == Approx(c == sum % p ? scale * (p - 1) / 2 : -scale / 2).epsilon(1e-9).margin(1e-9));
      }
    }
    const TableMargins margins = table_margins(U, W, k, p);
    CHECK(margins.accuracy == 1);
    CHECK(margins.normalized() / gamma_star(k, p) == Approx(1).epsilon(1e-9));
  }
}

TEST_CASE("γ* bounds the normalised margin of every network over the full table (Thm. 4.9)") {
  Rng rng(3);
  for (auto [k, p] : std::vector<std::pair<int, int>>{{2, 7}, {3, 5}, {2, 11}}) {
    MatD U, W;
    max_margin_construction(k, p, U, W);
    for (int trial = 0; trial < 5; ++trial) {
      MatD noise(U.rows(), U.cols()), noise_w(W.rows(), W.cols());
      for (Index i = 0; i < noise.size(); ++i) noise.data()[i] = rng.normal();
      for (Index i = 0; i < noise_w.size(); ++i) noise_w.data()[i] = rng.normal();
      const double eps = 0.02 * (trial + 1);
      CHECK(table_margins(U + eps * noise, W + eps * noise_w, k, p).normalized() <= gamma_star(k, p) * (1 + 1e-9));
      CHECK(table_margins(noise.topRows(10), noise_w.topRows(10), k, p).normalized() <= gamma_star(k, p));
    }
  }
}

TEST_CASE("a unit-norm single-frequency neuron has class-weighted margin γ*·cos(Σθ_j − θ_w) (Lem. 4.10)") {
  const int k = 3, p = 11;
  Rng rng(5);
  for (double shift : {0.0, M_PI / 2, M_PI}) {
    for (int zeta : {1, 4}) {
      MatD U(1, k * p), W(1, p);
      const double amplitude = std::sqrt(2.0 / ((k + 1) * p));
      double sum = 0;
      for (int j = 0; j < k; ++j) {
        const double theta = rng.uniform(-M_PI, M_PI);
        sum += theta;
        for (int a = 0; a < p; ++a) U(0, j * p + a) = amplitude * std::cos(theta + 2 * M_PI * zeta * a / p);
      }
      for (int c = 0; c < p; ++c) W(0, c) = amplitude * std::cos(sum + shift + 2 * M_PI * zeta * c / p);
      const TableMargins t = table_margins(U, W, k, p);
      CHECK(t.norm_power == Approx(1).epsilon(1e-12));
      CHECK(t.weighted_normalized() == Approx(gamma_star(k, p) * std::cos(shift)).margin(1e-12));
    }
  }
}

TEST_CASE("poly-one-hidden-layer: (Σ_j u_j[a_j])^k · w, its gradients, and the construction's weights through the plugin") {
  const int k = 3, p = 5;
  const DataSpec spec = modular_spec(k, p);
  auto model = pack().make<Model>("poly-one-hidden-layer", {{"width", std::int64_t(6)}, {"init_scale", 0.5}}, spec);
  Rng rng(2);
  model->init(rng);
  auto data = pack().make<Distribution>("modular-sum", {{"k", std::int64_t(k)}, {"p", std::int64_t(p)}});
  Dataset d;
  data->sample(40, Split::Train, rng, d);
  Mat out(40, p);
  model->forward(d.X, out);
  const MatD U = model->block("U").cast<double>(), W = model->block("W").cast<double>();
  for (Index i = 0; i < 40; ++i) {
    VecD z = VecD::Zero(6);
    for (int j = 0; j < k; ++j) z += U.col(j * p + static_cast<Index>(d.meta.at("a" + std::to_string(j + 1))(i)));
    const VecD f = W.transpose() * z.array().cube().matrix();
    for (int c = 0; c < p; ++c) CHECK(out(i, c) == Approx(f(c)).epsilon(1e-4).margin(1e-5));
  }
  auto loss = std_pack().make<Loss>("cross-entropy", {}, spec);
  CHECK(check_gradient(*model, *loss, Batch::of(d)).ok);
  CHECK(check_input_gradient(*model, Batch::of(d)).ok);

  auto construction = pack().make<Model>("fourier-max-margin", {}, spec);
  construction->init(rng);
  REQUIRE(construction->block("U").rows() == 16 * 4);
  MatD Uc, Wc;
  max_margin_construction(k, p, Uc, Wc);
  CHECK((construction->block("U").cast<double>() - Uc).cwiseAbs().maxCoeff() < 1e-6);
  DataSpec ragged = spec;
  ragged.dim = 11;  // not k blocks of p = 5
  CHECK_THROWS_WITH(pack().make<Model>("poly-one-hidden-layer", {}, ragged), Catch::Contains("one-hot blocks"));
}

TEST_CASE("probes: the construction is single-frequency everywhere, covers every frequency, meets the phase condition, and has ratio 1") {
  const int k = 2, p = 11;
  const DataSpec spec = modular_spec(k, p);
  auto model = pack().make<Model>("fourier-max-margin", {}, spec);
  Rng rng(1);
  model->init(rng);
  auto loss = std_pack().make<Loss>("cross-entropy", {}, spec);
  Dataset empty;
  FeatureSet features;
  std::vector<NamedAttack> attacks;
  const ProbeInput input{*model, *loss, empty, empty, features, attacks, 0};
  auto spectrum = pack().make<Probe>("fourier-neuron-spectrum", {}, spec);
  Measurements m;
  spectrum->measure(input, m);
  CHECK(metric(m, "active") == 40);
  CHECK(metric(m, "mnp_min") == Approx(1).margin(1e-5));
  CHECK(metric(m, "covered") == 5);
  CHECK(metric(m, "covered_single") == 5);
  CHECK(metric(m, "missing_single") == 0);
  CHECK(metric(m, "min_per_frequency") == 8);
  CHECK(metric(m, "entropy") == Approx(1).margin(1e-9));
  CHECK(metric(m, "phase_max") < 1e-4);
  auto margin = pack().make<Probe>("normalized-margin", {}, spec);
  Measurements g;
  margin->measure(input, g);
  CHECK(metric(g, "ratio") == Approx(1).epsilon(1e-5));
  CHECK(metric(g, "accuracy_table") == 1);

  // A random network: spread spectra (max-normalised power well below 1), margin below γ*.
  auto random = pack().make<Model>("poly-one-hidden-layer", {{"width", std::int64_t(40)}}, spec);
  random->init(rng);
  const ProbeInput random_input{*random, *loss, empty, empty, features, attacks, 0};
  Measurements r;
  spectrum->measure(random_input, r);
  CHECK(metric(r, "mnp_mean") < 0.5);
  CHECK(metric(r, "covered") == 5);         // random dominant frequencies cover every ζ ...
  CHECK(metric(r, "covered_single") == 0);  // ... but no random neuron is single-frequency
  CHECK(metric(r, "missing_single") == 5);
  Measurements rg;
  margin->measure(random_input, rg);
  CHECK(metric(rg, "ratio") < 1);
}

TEST_CASE("ICL regression closed forms: the rank-r optimum, the loss table, the rank gap and the best rank by shots (Thms. 5.4.1-5.4.3)") {
  IclSetting s;
  s.eigenvalues.resize(8);
  s.eigenvalues << 2, 1.5, 1, 0.5, 0.1, 0.1, 0.1, 0.1;
  s.context = 1000;
  VecD c = VecD::Zero(8);
  c(0) = c(1) = 1;
  // Thm. 5.4.2's loss by rank, as our reference computation tabulated it (N = 1000, M = 16, w = Q(1, 1, 0, …)).
  const double table[3][8] = {{1.8412, 0.6509, 0.8669, 1.0806, 1.2771, 1.4737, 1.6702, 1.8667},
                              {1.9033, 0.7749, 1.0526, 1.3273, 1.5800, 1.8327, 2.0854, 2.3381},
                              {2.0894, 1.1468, 1.6096, 2.0675, 2.4886, 2.9098, 3.3309, 3.7521}};
  for (int sigma = 0; sigma < 3; ++sigma) {
    for (int r = 1; r <= 8; ++r) CHECK(optimal_evaluation_loss(s, r, c, 16, sigma) == Approx(table[sigma][r - 1]).margin(5e-5));
  }
  // Thm. 5.4.1: the diagonal optimum is a stationary point of the pretraining loss (central differences).
  const MatD V = optimal_coefficients(s, 8).asDiagonal();
  for (Index i = 0; i < 8; ++i) {
    for (Index j = 0; j < 8; ++j) {
      MatD up = V, down = V;
      up(i, j) += 1e-6;
      down(i, j) -= 1e-6;
      CHECK((pretraining_loss(s, up) - pretraining_loss(s, down)) / 2e-6 == Approx(0).margin(1e-6));
    }
  }
  // Thm. 5.4.3: L(r′) − L(r) = (1/M)(‖s‖²_D + σ²) Σ_{r<i≤r′} (Nλ_i/((N+1)λ_i + tr D))², increasing in r′, linear in σ².
  const double trace = s.eigenvalues.sum(), sD = 3.5;
  for (double sigma : {0.0, 1.0, 2.0}) {
    double sum = 0;
    for (int rp = 3; rp <= 8; ++rp) {
      const double l = s.eigenvalues(rp - 1);
      sum += std::pow(s.context * l / ((s.context + 1) * l + trace), 2);
      const double gap = optimal_evaluation_loss(s, rp, c, 16, sigma) - optimal_evaluation_loss(s, 2, c, 16, sigma);
      CHECK(gap == Approx((sD + sigma * sigma) * sum / 16).epsilon(1e-12));
      CHECK(gap > 0);
    }
  }
  CHECK(optimal_evaluation_loss(s, 8, c, 16, 1) - optimal_evaluation_loss(s, 2, c, 16, 1) == Approx(1.5632).margin(1e-4));
  // Thm. 5.4.2's trade-off: with a tail in the task, more shots favour larger models:
  // r_opt = 2, 2, 4, 4, 8, 8 for M = 4 … 4096.
  VecD tail(8);
  tail << 1, 1, .5, .5, .3, .3, .3, .3;
  const int expected[6] = {2, 2, 4, 4, 8, 8};
  int k = 0;
  for (double shots : {4.0, 16.0, 64.0, 256.0, 1024.0, 4096.0}) {
    int best = 1;
    for (int r = 2; r <= 8; ++r) {
      if (optimal_evaluation_loss(s, r, tail, shots, 0) < optimal_evaluation_loss(s, best, tail, shots, 0)) best = r;
    }
    CHECK(best == expected[k++]);
  }
}

TEST_CASE("linear-self-attention: the prediction u·hᵀABᵀx_q over the filled tokens, its gradients, the closed-form init") {
  auto data = pack().make<Distribution>("icl-linear-regression", {{"context", std::int64_t(20)}, {"shots", std::int64_t(6)}, {"noise", 0.5}});
  const DataSpec spec = data->spec();
  const FeatureSet features = data->features();
  Rng rng(4);
  Dataset train, test;
  data->sample(30, Split::Train, rng, train);
  data->sample(30, Split::Test, rng, test);
  auto model = pack().make<Model>("linear-self-attention", {{"rank", std::int64_t(3)}, {"init_scale", 0.5}}, spec, 1, &features);
  model->init(rng);
  Mat out(30, 1);
  model->forward(test.X, out);
  const MatD A = model->block("A").cast<double>(), B = model->block("B").cast<double>();
  const double u = model->block("u")(0, 0);
  for (Index i = 0; i < 30; ++i) {
    VecD h = VecD::Zero(8);
    for (Index t = 0; t < 6; ++t) h += test.X(i, t * 9 + 8) * test.X.row(i).segment(t * 9, 8).transpose().cast<double>();
    h /= 6;  // M = 6 filled tokens of the 20 slots
    const VecD xq = test.X.row(i).segment(20 * 9, 8).transpose().cast<double>();
    CHECK(out(i, 0) == Approx(u * h.dot(A * B.transpose() * xq)).epsilon(1e-4).margin(1e-6));
  }
  auto loss = std_pack().make<Loss>("squared", {}, spec);
  CHECK(check_gradient(*model, *loss, Batch::of(train)).ok);

  auto optimum = pack().make<Model>("linear-self-attention", {{"rank", std::int64_t(2)}, {"init", std::string("closed-form")}}, spec, 1, &features);
  optimum->init(rng);
  IclSetting s;
  s.eigenvalues = features.at("eigenvalues").row(0).transpose().cast<double>();
  s.context = 20;
  const MatD Qt = features.at("basis").cast<double>();
  const MatD G = Qt * (optimum->block("A").cast<double>() * optimum->block("B").cast<double>().transpose()) * Qt.transpose();
  CHECK((G - MatD(optimal_coefficients(s, 2).asDiagonal())).cwiseAbs().maxCoeff() < 1e-5);
  CHECK_THROWS_WITH(pack().make<Model>("linear-self-attention", {{"init", std::string("closed-form")}}, spec),
                    Catch::Contains("icl-linear-regression"));
}

TEST_CASE("icl-sparse-parity: biased pairs with E[yφ_i] = 2γ, the population context Gz, exactly round(flip·M) flipped labels") {
  auto data = pack().make<Distribution>("icl-sparse-parity", {{"gamma", 0.2}, {"shots", std::int64_t(10)}, {"context", std::int64_t(0)},
                                                               {"flip", 0.3}, {"dictionary", std::string("random-orthogonal")}});
  const FeatureSet f = data->features();
  const MatD G = f.at("dictionary").cast<double>().transpose();
  Rng rng(6);
  Dataset train, test;
  data->sample(4000, Split::Train, rng, train);
  data->sample(4000, Split::Test, rng, test);
  const Index stride = 9, slots = 10;
  double y_mean = 0, yphi = 0;
  for (Index r = 0; r < train.size(); ++r) {
    const auto i = static_cast<Index>(train.meta.at("task_i")(r)) - 1, j = static_cast<Index>(train.meta.at("task_j")(r)) - 1;
    // The population token (Gz, 1) with z_i = z_j = 0.4.
    VecD z = VecD::Zero(8);
    z(i) = z(j) = 0.4;
    CHECK((train.X.row(r).segment(0, 8).transpose().cast<double>() - G * z).cwiseAbs().maxCoeff() < 1e-5);
    CHECK(train.X(r, 8) == 1);
    const VecD phi = G.transpose() * train.X.row(r).segment(slots * stride, 8).transpose().cast<double>();
    const double y = train.y(r) == 1 ? 1 : -1;
    CHECK(y == Approx(std::round(phi(i)) * std::round(phi(j))));
    y_mean += y;
    yphi += y * phi(i);
  }
  CHECK(y_mean / 4000 == Approx(0).margin(0.05));
  CHECK(yphi / 4000 == Approx(0.4).margin(0.05));
  for (Index r = 0; r < 50; ++r) {
    const auto i = static_cast<Index>(test.meta.at("task_i")(r)) - 1, j = static_cast<Index>(test.meta.at("task_j")(r)) - 1;
    CHECK(test.meta.at("in_s1")(r) == 1);
    CHECK(i < 2);
    CHECK(j < 2);
    int flipped = 0;
    for (Index t = 0; t < 10; ++t) {
      const VecD phi = G.transpose() * test.X.row(r).segment(t * stride, 8).transpose().cast<double>();
      flipped += std::abs(test.X(r, t * stride + 8) - std::round(phi(i)) * std::round(phi(j))) > 0.5 ? 1 : 0;
    }
    CHECK(flipped == 3);
  }
  CHECK_THROWS_WITH(pack().make<Distribution>("icl-sparse-parity", {{"d", std::int64_t(12)}}), Catch::Contains("powers of 2"));
}

TEST_CASE("multihead-relu-attention: the worked example of App. D.3.1, the gradients, and g even in the context") {
  MatD diagonals;
  VecD a;
  parity_construction(8, 3, 3, 0.1, diagonals, a);
  REQUIRE(diagonals.cols() == 8);
  const double q = 1 / (4 * 0.1);
  VecD v1(8), v2(8), v3(8);
  v1 << -1, 1, -1, 1, -1, 1, -1, 1;
  v2 << -1, -1, 1, 1, -1, -1, 1, 1;
  v3 << -1, -1, -1, -1, 1, 1, 1, 1;
  CHECK((diagonals.col(0) - q * v1).norm() < 1e-12);
  CHECK((diagonals.col(1) - q * v2).norm() < 1e-12);
  CHECK((diagonals.col(2) - q * v3).norm() < 1e-12);
  CHECK((diagonals.col(3) + 3 * q * VecD::Ones(8)).norm() < 1e-12);
  CHECK((diagonals.rightCols(4) + diagonals.leftCols(4)).norm() < 1e-12);
  CHECK(a(0) == -1);
  CHECK(a(3) == 1);
  CHECK(a(7) == 1);

  auto data = pack().make<Distribution>("icl-sparse-parity", {{"context", std::int64_t(12)}, {"shots", std::int64_t(12)}});
  const DataSpec spec = data->spec();
  Rng rng(7);
  Dataset d;
  data->sample(25, Split::Train, rng, d);
  auto model = pack().make<Model>("multihead-relu-attention", {{"heads", std::int64_t(5)}, {"init_scale", 0.7}}, spec);
  model->init(rng);
  auto loss = std_pack().make<Loss>("squared", {}, spec);
  CHECK(check_gradient(*model, *loss, Batch::of(d)).ok);
  // The constructions' mirror heads make g(−h) = g(h): negating every context label changes no prediction.
  const FeatureSet f = data->features();
  auto large = pack().make<Model>("multihead-relu-attention", {{"init", std::string("large")}}, spec, 1, &f);
  large->init(rng);
  Dataset negated = d;
  for (Index t = 0; t < 12; ++t) negated.X.col(t * 9 + 8) *= -1;
  Mat f1(25, 1), f2(25, 1);
  large->forward(d.X, f1);
  large->forward(negated.X, f2);
  CHECK((f1 - f2).cwiseAbs().maxCoeff() < 1e-5);
}

TEST_CASE("multihead-relu-attention: the graded construction has margin >= 1 on every task with 4 heads") {
  // In the population context h = 2γ G(e_i + e_j), so head l's score is 2γ (V_ii φ_i + V_jj φ_j): check
  // y g ≥ 1 for every ordered task (i, j), i ≠ j, and every (φ_i, φ_j), in d = 8 and 16.
  for (const int d : {8, 16}) {
    const double gamma = 0.2;
    MatD diagonals;
    VecD a;
    graded_construction(d, gamma, diagonals, a);
    REQUIRE(diagonals.cols() == 4);
    double worst = std::numeric_limits<double>::infinity();
    for (int i = 0; i < d; ++i) {
      for (int j = 0; j < d; ++j) {
        if (i == j) continue;
        for (const double pi : {-1.0, 1.0}) {
          for (const double pj : {-1.0, 1.0}) {
            double g = 0;
            for (Index l = 0; l < 4; ++l) g += a(l) * std::max(0.0, 2 * gamma * (diagonals(i, l) * pi + diagonals(j, l) * pj));
            worst = std::min(worst, pi * pj * g);
          }
        }
      }
    }
    CHECK(worst == Approx(1).epsilon(1e-12));  // adjacent entries, opposite signs: margin exactly 1
    CHECK(a.cwiseAbs().maxCoeff() <= 1);       // inside the theory's box a ∈ [−1, 1]^m
  }
}

TEST_CASE("transformer: token sequences of modular-sum, the gradients of every block, and refused token ids") {
  auto data = pack().make<Distribution>("modular-sum", {{"k", std::int64_t(2)}, {"p", std::int64_t(5)}, {"encoding", std::string("tokens")}});
  const DataSpec spec = data->spec();
  REQUIRE(spec.dim == 4);
  const FeatureSet f = data->features();
  CHECK(f.at("vocab")(0, 0) == 7);
  Rng rng(8);
  Dataset d;
  data->sample(12, Split::Train, rng, d);
  for (Index i = 0; i < d.size(); ++i) {
    CHECK(d.X(i, 1) == 0);  // 'o'
    CHECK(d.X(i, 3) == 1);  // '='
    CHECK(d.y(i) == (static_cast<int>(d.X(i, 0)) - 2 + static_cast<int>(d.X(i, 2)) - 2) % 5);
  }
  for (bool causal : {true, false}) {
    auto model = pack().make<Model>("transformer", {{"layers", std::int64_t(2)}, {"heads", std::int64_t(2)}, {"width", std::int64_t(8)},
                                                    {"head_width", std::int64_t(4)}, {"mlp", std::int64_t(16)}, {"causal", causal}},
                                    spec, 1, &f);
    model->init(rng);
    auto loss = std_pack().make<Loss>("cross-entropy", {}, spec);
    GradientCheckOptions options;
    options.directions = 16;
    options.coordinates = 48;
    const auto result = check_gradient(*model, *loss, Batch::of(d), options);
    INFO(result.report);
    CHECK(result.ok);
  }
  auto model = pack().make<Model>("transformer", {{"width", std::int64_t(8)}, {"head_width", std::int64_t(4)}, {"mlp", std::int64_t(8)}}, spec, 1, &f);
  model->init(rng);
  d.X(0, 0) = 9;
  Mat out(12, 5);
  CHECK_THROWS_WITH(model->forward(d.X, out), Catch::Contains("outside the vocabulary"));
}

TEST_CASE("transformer: a batch of 16 or more runs as two shards, with the gradient checked and the same bits on 1, 2 and 3 threads") {
  auto data = pack().make<Distribution>("modular-sum", {{"k", std::int64_t(2)}, {"p", std::int64_t(11)}, {"encoding", std::string("tokens")}});
  const DataSpec spec = data->spec();
  const FeatureSet f = data->features();
  Rng rng(12);
  Dataset d;
  data->sample(37, Split::Train, rng, d);  // odd: shards of 18 and 19 samples (72 and 76 token rows)
  // Width 8 leaves most products to Eigen (8 floats are half a strip with AVX-512); width 16 with 2 heads of 8 and an
  // MLP of 32 runs every product of the blocks register-tiled (whole strips with AVX2 and AVX-512, float and double).
  for (const std::int64_t width : {8, 16})
  for (const std::string positions : {"learned", "rope"}) {
    auto model = pack().make<Model>("transformer", {{"layers", std::int64_t(2)}, {"heads", std::int64_t(2)}, {"width", width},
                                                    {"head_width", width / 2}, {"mlp", 2 * width},
                                                    {"positions", positions}},
                                    spec, 1, &f);
    model->init(rng);
    auto loss = std_pack().make<Loss>("cross-entropy", {}, spec);
    GradientCheckOptions options;
    options.directions = 16;
    options.coordinates = 48;
    const auto result = check_gradient(*model, *loss, Batch::of(d), options);
    INFO("width " << width << ", " << positions << ": " << result.report);
    CHECK(result.ok);
    Mat out1, dout;
    Vec grad1;
    for (const int threads : {1, 2, 3}) {
      set_job_threads(threads);
      Mat out(37, 11);
      model->forward(d.X, out);
      dout = (out.array() * Scalar(0.5)).sin().matrix();  // any fixed upstream gradient
      Vec grad(model->trainable_size());
      model->backward(d.X, dout, grad);
      if (threads == 1) {
        out1 = out;
        grad1 = grad;
      } else {
        CHECK(out == out1);
        CHECK(grad == grad1);
      }
    }
    set_job_threads(1);
  }
}

TEST_CASE("attention-fourier-2d: a head whose token-space attention is cos(2πζ1a/p)·cos(2πζ2b/p) has all its power in 4 bins") {
  const int p = 11, z1 = 2, z2 = 3;
  auto data = pack().make<Distribution>("modular-sum", {{"k", std::int64_t(2)}, {"p", std::int64_t(p)}, {"encoding", std::string("tokens")}});
  const DataSpec spec = data->spec();
  const FeatureSet f = data->features();
  auto model = pack().make<Model>("transformer", {{"heads", std::int64_t(2)}, {"width", std::int64_t(2)}, {"head_width", std::int64_t(1)},
                                                  {"mlp", std::int64_t(4)}}, spec, 1, &f);
  Rng rng(3);
  model->init(rng);
  for (int a = 0; a < p; ++a) {
    model->block("embed")(a + 2, 0) = static_cast<Scalar>(std::cos(2 * M_PI * z1 * a / p));
    model->block("embed")(a + 2, 1) = static_cast<Scalar>(std::cos(2 * M_PI * z2 * a / p));
  }
  model->block("l0.wq").col(0) << 1, 0;  // head 0: A(a, b) = e_a[0]·e_b[1]
  model->block("l0.wk").col(0) << 0, 1;
  model->block("l0.wq").col(1) << Scalar(0.3), Scalar(-0.8);  // head 1: a rank-one mix of both frequencies
  model->block("l0.wk").col(1) << Scalar(0.5), Scalar(0.9);
  auto loss = std_pack().make<Loss>("cross-entropy", {}, spec);
  Dataset empty;
  std::vector<NamedAttack> attacks;
  auto probe = pack().make<Probe>("attention-fourier-2d", {}, spec);
  Measurements m;
  probe->measure(ProbeInput{*model, *loss, empty, empty, f, attacks, 0}, m);
  const auto table = [&](const std::string& name) -> const Table& {
    for (const auto& [n, t] : m.tables()) {
      if (n == name) return t;
    }
    FAIL("no table " << name);
    return m.tables().front().second;
  };
  const Table& heads = table("heads");
  CHECK(heads.values(0, 1) == Approx(1).margin(1e-5));
  // At step 0 the spectrum itself: four equal peaks at (±ζ1, ±ζ2), nothing else.
  const MatD& power = table("power.head0").values;
  CHECK((power.array() > 0.99).count() == 4);
  CHECK(power(z1, z2) == Approx(1).margin(1e-6));
  CHECK(power.sum() == Approx(4).margin(1e-4));
  CHECK(std::min(heads.values(0, 2), p - heads.values(0, 2)) == z1);
  CHECK(std::min(heads.values(0, 3), p - heads.values(0, 3)) == z2);
  CHECK(heads.values(1, 1) < 0.9);  // four frequency pairs share its power
  CHECK(metric(m, "sparse_heads") > 0);
}

TEST_CASE("grokking-timing: the first evaluated steps at which train and test accuracy reach the threshold") {
  const int k = 2, p = 5;
  const DataSpec spec = modular_spec(k, p);
  auto model = pack().make<Model>("fourier-max-margin", {}, spec);  // classifies every tuple
  Rng rng(1);
  model->init(rng);
  auto random = pack().make<Model>("poly-one-hidden-layer", {{"width", std::int64_t(4)}}, spec);
  random->init(rng);
  auto data = pack().make<Distribution>("modular-sum", {{"k", std::int64_t(k)}, {"p", std::int64_t(p)}});
  Dataset train, test;
  data->sample(12, Split::Train, rng, train);
  data->sample(13, Split::Test, rng, test);
  auto loss = std_pack().make<Loss>("cross-entropy", {}, spec);
  FeatureSet features;
  std::vector<NamedAttack> attacks;
  auto probe = pack().make<Probe>("grokking-timing", {}, spec);
  Measurements before, after;
  probe->measure(ProbeInput{*random, *loss, train, test, features, attacks, 100}, before);
  CHECK(metric(before, "t_train") == -1);
  probe->measure(ProbeInput{*model, *loss, train, test, features, attacks, 300}, after);
  CHECK(metric(after, "t_train") == 300);
  CHECK(metric(after, "t_test") == 300);
  CHECK(metric(after, "gap") == 0);
}

TEST_CASE("needle-retrieval: haystack values, distinct needle keys, the query key last, the label its value, depth places it") {
  auto data = pack().make<Distribution>("needle-retrieval", {{"length", std::int64_t(24)}, {"values", std::int64_t(10)},
                                                             {"keys", std::int64_t(5)}, {"pairs", std::int64_t(3)}});
  const DataSpec spec = data->spec();
  REQUIRE(spec.dim == 24);
  REQUIRE(spec.classes == 10);
  CHECK(data->features().at("vocab")(0, 0) == 15);
  Rng rng(4);
  Dataset d;
  data->sample(200, Split::Train, rng, d);
  for (Index i = 0; i < d.size(); ++i) {
    const int query = static_cast<int>(d.X(i, 23));
    const auto key = static_cast<Index>(d.meta.at("needle_key")(i));
    REQUIRE(query >= 10);
    CHECK(d.X(i, key) == query);
    CHECK(d.meta.at("needle_value")(i) == key + 1);
    CHECK(d.y(i) == static_cast<int>(d.X(i, key + 1)));
    std::set<int> keys;
    int key_tokens = 0;
    for (Index t = 0; t < 23; ++t) {
      const int token = static_cast<int>(d.X(i, t));
      if (token >= 10) {
        ++key_tokens;
        keys.insert(token);
        CHECK(d.X(i, t + 1) < 10);  // every key is followed by its value
      }
    }
    CHECK(key_tokens == 3);
    CHECK(keys.size() == 3);
  }
  auto deep = pack().make<Distribution>("needle-retrieval", {{"length", std::int64_t(24)}, {"depth", 0.5}});
  deep->sample(5, Split::Test, rng, d);
  for (Index i = 0; i < d.size(); ++i) CHECK(d.meta.at("needle_key")(i) == 11);  // round(0.5·21): starts 0 … 21 of 23 haystack slots
  for (Index i = 0; i < d.size(); ++i) CHECK(d.meta.at("needle_depth")(i) == Approx(11.0 / 21));
  // A three-token question: the query key, then two answer markers (one more token id); the haystack is 21 tokens.
  auto asked = pack().make<Distribution>("needle-retrieval", {{"length", std::int64_t(24)}, {"values", std::int64_t(10)},
                                                              {"keys", std::int64_t(5)}, {"question", std::int64_t(3)}, {"depth", 1.0}});
  CHECK(asked->features().at("vocab")(0, 0) == 16);
  asked->sample(20, Split::Test, rng, d);
  for (Index i = 0; i < d.size(); ++i) {
    CHECK(d.X(i, 21) == d.X(i, static_cast<Index>(d.meta.at("needle_key")(i))));
    CHECK(d.X(i, 22) == 15);
    CHECK(d.X(i, 23) == 15);
    CHECK(d.meta.at("needle_key")(i) == 19);  // the last start of 21 haystack slots
    CHECK(d.meta.at("needle_depth")(i) == 1);
  }
  CHECK_THROWS_WITH(pack().make<Distribution>("needle-retrieval", {{"keys", std::int64_t(2)}, {"pairs", std::int64_t(3)}}),
                    Catch::Contains("distinct keys"));
  CHECK_THROWS_WITH(pack().make<Distribution>("needle-retrieval", {{"length", std::int64_t(8)}, {"pairs", std::int64_t(2)}}),
                    Catch::Contains("raise length"));
}

TEST_CASE("transformer with rotary positions: gradients, invariance to shifting every position, odd head width refused") {
  auto data = pack().make<Distribution>("needle-retrieval", {{"length", std::int64_t(10)}, {"values", std::int64_t(6)},
                                                             {"keys", std::int64_t(3)}, {"pairs", std::int64_t(1)}});
  const DataSpec spec = data->spec();
  const FeatureSet f = data->features();
  Rng rng(11);
  Dataset d;
  data->sample(6, Split::Train, rng, d);
  auto model = pack().make<Model>("transformer", {{"layers", std::int64_t(2)}, {"heads", std::int64_t(2)}, {"width", std::int64_t(8)},
                                                  {"head_width", std::int64_t(4)}, {"mlp", std::int64_t(16)},
                                                  {"positions", std::string("rope")}}, spec, 1, &f);
  CHECK(model->find_block("pos") == nullptr);
  model->init(rng);
  auto loss = std_pack().make<Loss>("cross-entropy", {}, spec);
  GradientCheckOptions options;
  options.directions = 16;
  options.coordinates = 48;
  const auto result = check_gradient(*model, *loss, Batch::of(d), options);
  INFO(result.report);
  CHECK(result.ok);
  // RoPE scores depend on position differences only: the first 7 tokens at positions 3 … 9 give the logits they
  // give at 0 … 6.
  auto& tf = dynamic_cast<Transformer&>(*model);
  std::vector<int> tokens, at_zero, shifted;
  for (Index i = 0; i < d.size(); ++i) {
    for (Index t = 0; t < 7; ++t) {
      tokens.push_back(static_cast<int>(d.X(i, t)));
      at_zero.push_back(static_cast<int>(t));
      shifted.push_back(static_cast<int>(t + 3));
    }
  }
  Mat a(d.size(), 6), b(d.size(), 6);
  tf.run_tokens(tokens, at_zero, d.size(), 7, -1, a);
  tf.run_tokens(tokens, shifted, d.size(), 7, -1, b);
  CHECK((a - b).cwiseAbs().maxCoeff() < 1e-4);
  CHECK(a.cwiseAbs().maxCoeff() > 1e-2);
  CHECK_THROWS_WITH(pack().make<Model>("transformer", {{"head_width", std::int64_t(3)}, {"positions", std::string("rope")}}, spec, 1, &f),
                    Catch::Contains("make it even"));
}

TEST_CASE("gemfilter selection: pooled top-k, ties to the earlier token, ascending indices, Thm 9.3's prompt ratio r/m (D9.1, D9.2)") {
  const std::vector<Scalar> s = {0, 5, 0, 0, 0, 0, 0, 0, 9, 0};
  CHECK(gemfilter_select(s.data(), 10, 2, Pool::None, 5, false) == std::vector<int>{1, 8});
  CHECK(gemfilter_select(s.data(), 10, 2, Pool::None, 5, true) == std::vector<int>{8, 9});
  // avg over 5 (zero padding counted): the 9 spreads over 6 … 9 (9/5) and the 5 over 0 … 3 (5/5); ties to earlier.
  CHECK(gemfilter_select(s.data(), 10, 3, Pool::Avg, 5, false) == std::vector<int>{6, 7, 8});
  CHECK(gemfilter_select(s.data(), 10, 6, Pool::Max, 5, false) == std::vector<int>{0, 1, 6, 7, 8, 9});
  CHECK(gemfilter_select(s.data(), 10, 20, Pool::Avg, 5, false).size() == 10);
  const Complexity c = gemfilter_complexity(4096, 32, 8, 128, 64, 4, 13, 1e6);
  CHECK(c.prompt_time[2] / c.prompt_time[0] == Approx(13.0 / 32));
  CHECK(c.generation_time[1] < c.generation_time[0]);
  CHECK(c.prompt_memory[2] < c.prompt_memory[1]);
}

TEST_CASE("gemfilter-selection probe: valid selections, the k = n rerun equal to the full model, coverage per layer") {
  auto data = pack().make<Distribution>("needle-retrieval", {{"length", std::int64_t(16)}, {"values", std::int64_t(6)},
                                                             {"keys", std::int64_t(3)}, {"pairs", std::int64_t(2)}});
  const DataSpec spec = data->spec();
  const FeatureSet f = data->features();
  Rng rng(5);
  Dataset train, test;
  data->sample(40, Split::Test, rng, test);
  auto model = pack().make<Model>("transformer", {{"layers", std::int64_t(3)}, {"heads", std::int64_t(2)}, {"width", std::int64_t(8)},
                                                  {"head_width", std::int64_t(4)}, {"mlp", std::int64_t(8)},
                                                  {"positions", std::string("rope")}}, spec, 1, &f);
  model->init(rng);
  auto loss = std_pack().make<Loss>("cross-entropy", {}, spec);
  std::vector<NamedAttack> attacks;
  auto probe = pack().make<Probe>("gemfilter-selection", {{"k", std::int64_t(6)}, {"filter_layer", std::int64_t(2)}}, spec);
  Measurements m;
  probe->measure(ProbeInput{*model, *loss, train, test, f, attacks, 0}, m);
  CHECK(metric(m, "selection_valid") == 1);
  CHECK(metric(m, "accuracy_keep_query") >= 0);
  CHECK(metric(m, "full_k_max_difference") == 0);
  CHECK(metric(m, "one_run_all_max_difference") == 0);
  CHECK(metric(m, "accuracy_one_run") >= 0);
  CHECK(metric(m, "accuracy_middle_row") >= 0);
  CHECK(metric(m, "accuracy_l2_row") >= 0);
  CHECK(metric(m, "kept") == Approx(6.0 / 16));
  CHECK(metric(m, "filter_layer") == 2);
  CHECK(metric(m, "prompt_time_ratio") == Approx(2.0 / 3));
  CHECK(metric(m, "flops_ratio") < 1);
  const Table* layers = nullptr;
  for (const auto& [name, table] : m.tables()) {
    if (name == "layers") layers = &table;
  }
  REQUIRE(layers != nullptr);
  CHECK(layers->values.rows() == 3);
  CHECK(layers->values(1, 0) == Approx(metric(m, "coverage")));
  CHECK(layers->values(1, 3) == Approx(metric(m, "accuracy_one_run")));
  // The baselines on the same model: exactly k cached positions per block and head, nothing evicted = the full run.
  auto eviction = pack().make<Probe>("kv-eviction", {{"k", std::int64_t(6)}}, spec);
  Measurements e;
  eviction->measure(ProbeInput{*model, *loss, train, test, f, attacks, 0}, e);
  CHECK(metric(e, "budget_valid") == 1);
  CHECK(metric(e, "all_kept_max_difference") == 0);
  CHECK(metric(e, "accuracy_snapkv") >= 0);
  CHECK(metric(e, "needle_kept_h2o") <= 1);
  CHECK_THROWS_WITH(pack().make<Probe>("kv-eviction", {{"k", std::int64_t(2)}, {"window", std::int64_t(3)}}, spec),
                    Catch::Contains("exceeds the budget"));
  auto bad = pack().make<Probe>("gemfilter-selection", {{"filter_layer", std::int64_t(5)}}, spec);
  CHECK_THROWS_WITH(bad->measure(ProbeInput{*model, *loss, train, test, f, attacks, 0}, m), Catch::Contains("has 3 blocks"));
  auto other = pack().make<Model>("poly-one-hidden-layer", {{"width", std::int64_t(4)}}, modular_spec(2, 5));
  CHECK_THROWS_WITH(probe->measure(ProbeInput{*other, *loss, train, test, f, attacks, 0}, m), Catch::Contains("transformer"));
}

TEST_CASE("KV eviction (One-Run, App. G.4.5): keeping every key is the full run exactly, the kept keys are the full run's cache") {
  auto data = pack().make<Distribution>("needle-retrieval", {{"length", std::int64_t(12)}, {"values", std::int64_t(6)},
                                                             {"keys", std::int64_t(3)}, {"pairs", std::int64_t(1)}});
  const DataSpec spec = data->spec();
  const FeatureSet f = data->features();
  Rng rng(17);
  Dataset d;
  data->sample(5, Split::Test, rng, d);
  const Index n = d.size(), T = 12;
  std::vector<int> tokens, positions;
  for (Index i = 0; i < n; ++i) {
    for (Index t = 0; t < T; ++t) {
      tokens.push_back(static_cast<int>(d.X(i, t)));
      positions.push_back(static_cast<int>(t));
    }
  }
  // J = {0, 3, 5, 9, 11} in every block and head.
  const std::vector<int> J = {0, 3, 5, 9, 11};
  for (Index layers : {1, 2}) {
    auto model = pack().make<Model>("transformer", {{"layers", std::int64_t(layers)}, {"heads", std::int64_t(2)}, {"width", std::int64_t(8)},
                                                    {"head_width", std::int64_t(4)}, {"mlp", std::int64_t(16)},
                                                    {"positions", std::string("rope")}}, spec, 1, &f);
    model->init(rng);
    auto& tf = dynamic_cast<Transformer&>(*model);
    Mat full(n, 6), evicted(n, 6), rerun(n, 6);
    tf.run_tokens(tokens, positions, n, T, -1, full);
    const auto LHT = static_cast<std::size_t>(n * layers * 2 * T);
    tf.run_evicted(tokens, n, T, std::vector<unsigned char>(LHT, 1), evicted);
    CHECK((evicted - full).cwiseAbs().maxCoeff() == 0);  // bit for bit
    std::vector<unsigned char> keep(LHT, 0);
    for (std::size_t c = 0; c < LHT / T; ++c) {
      for (int j : J) keep[c * T + static_cast<std::size_t>(j)] = 1;
    }
    tf.run_evicted(tokens, n, T, keep, evicted);
    // T_J recomputed at its original positions.
    std::vector<int> sub, at;
    for (Index i = 0; i < n; ++i) {
      for (int j : J) {
        sub.push_back(tokens[static_cast<std::size_t>(i * T + j)]);
        at.push_back(j);
      }
    }
    tf.run_tokens(sub, at, n, static_cast<Index>(J.size()), -1, rerun);
    CHECK((evicted - full).cwiseAbs().maxCoeff() > 1e-3);  // eviction changes the answer
    // One block: the kept keys and values depend on their own tokens only, so the evicted cache is the rerun's at the
    // original positions; with two blocks they carry the evicted context (One-Run does not recompute them).
    if (layers == 1) CHECK((evicted - rerun).cwiseAbs().maxCoeff() < 1e-4);
    if (layers == 2) CHECK((evicted - rerun).cwiseAbs().maxCoeff() > 1e-3);
  }
}

TEST_CASE("SnapKV and H2O (ch. 9's baselines): exactly the budget, the window kept, the voted or heavy keys chosen") {
  const Index T = 8;
  Mat P = Mat::Zero(T, T);
  // Every query pays 0.5 to key 0 (a sink) and the rest to itself, queries 2 … 5 also 0.3 to key 1; the observation
  // window's queries 6 and 7 pay key 2 0.4 and key 4 0.45.
  for (Index i = 0; i < T; ++i) {
    P(i, 0) += 0.5f;
    P(i, i) += 0.5f;
  }
  for (Index i = 2; i <= 5; ++i) {
    P(i, 1) = 0.3f;
    P(i, i) = 0.2f;
  }
  P(6, 6) = 0.1f;
  P(6, 2) = 0.4f;
  P(7, 7) = 0.05f;
  P(7, 4) = 0.45f;
  // SnapKV's votes (rows 6, 7): key 0 1.0, key 4 0.45, key 2 0.4; two of the prefix 0 … 5 and the window 6, 7.
  CHECK(snapkv_keep(P, 4, 2, Pool::None, 5) == std::vector<int>{0, 4, 6, 7});
  CHECK(snapkv_keep(P, 5, 2, Pool::None, 5) == std::vector<int>{0, 2, 4, 6, 7});
  // H2O's accumulated attention over all rows: key 0 4.5, key 1 1.7, key 4 0.65, key 2 0.6.
  CHECK(h2o_keep(P, 4, 2) == std::vector<int>{0, 1, 6, 7});
  CHECK(h2o_keep(P, 5, 2) == std::vector<int>{0, 1, 4, 6, 7});
  for (Index k = 1; k <= T + 2; ++k) {
    for (Index w = 1; w <= std::min<Index>(k, 3); ++w) {
      const std::vector<int> s = snapkv_keep(P, k, w, Pool::Avg, 5), h = h2o_keep(P, k, w);
      CHECK(static_cast<Index>(s.size()) == std::min(k, T));
      CHECK(static_cast<Index>(h.size()) == std::min(k, T));
      CHECK(std::adjacent_find(s.begin(), s.end(), [](int a, int b) { return a >= b; }) == s.end());
      CHECK(s.back() == T - 1);
      CHECK(h.back() == T - 1);
    }
  }
}

// Z^{k−1} and Z^k are made a block of rows at a time (256 rows at width 64): the bits must be those of the
// whole-matrix passes, Z^k = (((Z·Z)·Z)·Z), that the model made before.
TEST_CASE("poly-one-hidden-layer: the powers by blocks of rows have the bits of whole-matrix passes") {
  const int k = 4, p = 5;
  const DataSpec spec = modular_spec(k, p);
  auto model = pack().make<Model>("poly-one-hidden-layer", {{"width", std::int64_t(64)}, {"init_scale", 0.5}}, spec);
  Rng rng(7);
  model->init(rng);
  auto data = pack().make<Distribution>("modular-sum", {{"k", std::int64_t(k)}, {"p", std::int64_t(p)}});
  Dataset d;
  data->sample(312, Split::Train, rng, d);  // the whole training split of 5^4 inputs: two blocks of rows
  Mat Z, H;
  model->hook("hidden.pre", d.X, Z);
  model->hook("hidden.post", d.X, H);
  Mat expected = Z;
  for (int i = 1; i < k; ++i) expected.array() *= Z.array();
  CHECK(H == expected);
}

// Eq. 4.2's network as std's layers: linear (m, no bias: U) → poly (z^k) → linear (p, no bias: W, which the
// model keeps as m × p and std's linear as p × m), on one-hot modular-sum inputs: the same outputs, gradients
// and input gradients.
TEST_CASE("poly-one-hidden-layer composed of std layers (linear, poly, linear) equals the hand-written one") {
  const int k = 3, p = 5;
  const DataSpec spec = modular_spec(k, p);
  auto hand = pack().make<Model>("poly-one-hidden-layer", {{"width", std::int64_t(6)}, {"init_scale", 0.5}}, spec);
  ComponentSpec embed = testing::layer("linear", {{"out", std::int64_t(6)}, {"bias", false}});
  embed.block_names = {"U"};
  ComponentSpec readout = testing::layer("linear", {{"out", std::int64_t(p)}, {"bias", false}});
  readout.block_names = {"W"};
  auto composed = std_pack().make<Model>(
      "network",
      {{"layer", testing::layers({embed, testing::layer("poly", {{"power", std::int64_t(k)}}), readout})}}, spec);
  Rng rng(6);
  hand->init(rng);
  auto data = pack().make<Distribution>("modular-sum", {{"k", std::int64_t(k)}, {"p", std::int64_t(p)}});
  Dataset d;
  data->sample(40, Split::Train, rng, d);
  testing::CompareOptions options;
  options.transposed = {"W"};
  const testing::ModelComparison c = testing::compare_models(*hand, *composed, d.X, options);
  CHECK(c.failures(1e-5, 0.1) == "");
}

// The one-hot rows (gathers of Uᵀ's rows, scatters into ∇Uᵀ, neurons in tiles of 16 and blocks of 64: width 70 has a
// tail of each) against Eq. 4.2's products in double; an input that is not one-hot (a 0.5, or a 2) takes the
// products; 1 and 2 threads give the same bits.
TEST_CASE("poly-one-hidden-layer: one-hot rows as gathers and scatters equal the products, other inputs take the products") {
  const int k = 4, p = 5;
  const Index width = 70, n = 240;  // n·width·(k + p) above the parallel threshold (threads.hpp)
  const DataSpec spec = modular_spec(k, p);
  auto model = pack().make<Model>("poly-one-hidden-layer", {{"width", std::int64_t(width)}, {"init_scale", 0.5}}, spec);
  Rng rng(9);
  model->init(rng);
  auto data = pack().make<Distribution>("modular-sum", {{"k", std::int64_t(k)}, {"p", std::int64_t(p)}});
  Dataset d;
  data->sample(n, Split::Train, rng, d);
  Mat dout(n, p);
  for (Index i = 0; i < n; ++i)
    for (Index c = 0; c < p; ++c) dout(i, c) = Scalar(std::sin(0.7 * double(i) + 1.3 * double(c)));
  const MatD U = model->block("U").cast<double>(), W = model->block("W").cast<double>();
  // Eq. 4.2 and its gradients: Z = XUᵀ, f = Z^k W, ∇W = (Z^k)ᵀD, ∇U = (k Z^{k−1} ⊙ DWᵀ)ᵀX.
  const auto reference = [&](const Mat& X, MatD& f, VecD& grad) {
    const MatD Z = X.cast<double>() * U.transpose();
    const MatD H = Z.array().pow(k).matrix(), dZ = (Z.array().pow(k - 1) * double(k) * (dout.cast<double>() * W.transpose()).array()).matrix();
    f = H * W;
    const MatD gU = dZ.transpose() * X.cast<double>(), gW = H.transpose() * dout.cast<double>();
    grad.resize(gU.size() + gW.size());
    grad << Eigen::Map<const VecD>(gU.data(), gU.size()), Eigen::Map<const VecD>(gW.data(), gW.size());
  };
  Mat not_one_hot = d.X;
  not_one_hot(3, 2) = Scalar(0.5);
  not_one_hot(7, p + 1) = Scalar(2);
  for (const Mat* X : {&d.X, &not_one_hot}) {
    MatD f;
    VecD expected;
    reference(*X, f, expected);
    Mat out1;
    Vec grad1;
    for (const int threads : {1, 2}) {
      set_job_threads(threads);
      Mat out(n, p);
      model->forward(*X, out);
      Vec grad(model->trainable_size());
      model->backward(*X, dout, grad);
      INFO((X == &d.X ? "one-hot" : "not one-hot") << ", " << threads << " threads");
      CHECK((out.cast<double>() - f).cwiseAbs().maxCoeff() <= 1e-4 * (1 + f.cwiseAbs().maxCoeff()));
      CHECK((grad.cast<double>() - expected).cwiseAbs().maxCoeff() <= 1e-4 * (1 + expected.cwiseAbs().maxCoeff()));
      if (threads == 1) {
        out1 = out;
        grad1 = grad;
      } else {
        CHECK(out == out1);
        CHECK(grad == grad1);
      }
    }
    set_job_threads(1);
  }
}
