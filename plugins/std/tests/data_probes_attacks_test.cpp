// std distributions, the standard trainer (through a minimal host), probes and attacks.
#include "std_harness.hpp"
#include "xor_trainer_setup.hpp"

#include <featurelab/fake_trainer_host.hpp>
#include <featurelab/testing.hpp>

#include <catch2/catch.hpp>

#include <cmath>
#include <set>

using namespace featurelab;
using std_test::harness;
using std_test::xor_trainer_setup;
using std_test::Overrides;

namespace {

Dataset sample(const std::string& name, const Overrides& params, Index n, std::uint64_t seed = 1) {
  auto d = harness().make<Distribution>(name, params, {}, 9);
  Dataset out;
  Rng rng(seed);
  d->sample(n, Split::Train, rng, out);
  return out;
}

}  // namespace

TEST_CASE("xor-clusters: clusters, labels, noise modes and metadata") {
  const Dataset d = sample("xor-clusters", {{"dim", std::int64_t(5)}, {"label_noise", 0.2},
                                            {"noise_mode", std::string("exact")}}, 4000);
  REQUIRE(d.X.rows() == 4000);
  REQUIRE(d.X.cols() == 5);
  const VecD& cluster = d.meta.at("cluster");
  const VecD& clean = d.meta.at("y_clean");
  const VecD& noisy = d.meta.at("is_noisy");
  CHECK(noisy.sum() == 800);  // exactly round(0.2 · 4000)
  for (int k = 0; k < 4; ++k) {
    const double fraction = (cluster.array() == k).count() / 4000.0;
    CHECK(fraction == Approx(0.25).margin(0.03));
  }
  double sigma2 = 0;
  for (Index i = 0; i < 4000; ++i) {
    const int k = static_cast<int>(cluster(i));
    CHECK(clean(i) == (k < 2 ? 1 : 0));
    CHECK((d.y(i) != clean(i)) == (noisy(i) > 0));
    VecD centre = VecD::Zero(5);
    centre(k < 2 ? 0 : 1) = k % 2 == 0 ? 1 : -1;
    sigma2 += (d.X.row(i).cast<double>().transpose() - centre).squaredNorm();
  }
  CHECK(sigma2 / (4000 * 5) == Approx(1.0 / (25 * 5)).epsilon(0.05));  // default σ² = 1/(25d)
  const Dataset b = sample("xor-clusters", {{"label_noise", 0.15}}, 20000);
  CHECK(b.meta.at("is_noisy").mean() == Approx(0.15).margin(0.01));
  const Dataset again = sample("xor-clusters", {{"label_noise", 0.15}}, 20000);
  CHECK(again.X == b.X);
  CHECK(again.y == b.y);
}

TEST_CASE("xor-clusters noise laws have covariance sigma^2 I") {
  for (const std::string noise : {"uniform-cube", "laplace"}) {
    const Dataset d = sample("xor-clusters", {{"noise", noise}, {"sigma", 0.3}}, 20000);
    const VecD& cluster = d.meta.at("cluster");
    double s = 0;
    for (Index i = 0; i < d.size(); ++i) {
      const int k = static_cast<int>(cluster(i));
      const double c0 = k == 0 ? 1 : k == 1 ? -1 : 0, c1 = k == 2 ? 1 : k == 3 ? -1 : 0;
      s += std::pow(d.X(i, 0) - c0, 2) + std::pow(d.X(i, 1) - c1, 2);
    }
    CHECK(s / (2 * 20000) == Approx(0.09).epsilon(0.05));
  }
}

TEST_CASE("gaussian-mixture: orthogonal and random means, balance") {
  auto dist = harness().make<Distribution>("gaussian-mixture", {{"classes", std::int64_t(4)}, {"dim", std::int64_t(6)},
                                                                {"mean_norm", 3.0}, {"balanced", true}}, {});
  const Mat means = dist->features().at("means");
  CHECK((means * means.transpose()).isApprox(Mat(9 * Mat::Identity(4, 4))));
  Dataset d;
  Rng rng(2);
  dist->sample(400, Split::Train, rng, d);
  for (int c = 0; c < 4; ++c) CHECK((d.y.array() == c).count() == 100);
  auto random = harness().make<Distribution>("gaussian-mixture", {{"means", std::string("random")}, {"dim", std::int64_t(3)},
                                                                  {"classes", std::int64_t(5)}}, {});
  CHECK(random->features().at("means").rowwise().norm().isApprox(Vec::Ones(5)));
  CHECK_THROWS_WITH(harness().make<Distribution>("gaussian-mixture", {{"classes", std::int64_t(5)}, {"dim", std::int64_t(3)}}, {}),
                    Catch::Contains("dim >= classes"));
}

TEST_CASE("standard trainer: evaluation steps, loss decrease, minibatches in place") {
  auto s = xor_trainer_setup({{"steps", std::int64_t(50)}, {"eval_every", std::int64_t(20)}, {"eval_at", std::vector<std::int64_t>{5, 20}},
                  {"log_every", std::int64_t(1)}});
  Rng rng(1);
  s.host->run(rng);
  CHECK(s.host->evaluated == std::vector<Index>{0, 5, 20, 40, 50});
  const std::vector<double> losses = s.host->values("train.loss");
  REQUIRE(losses.size() == 50);
  CHECK(losses.back() < losses.front());

  auto m = xor_trainer_setup({{"steps", std::int64_t(4)}, {"batch", std::int64_t(50)}, {"shuffle", false}});
  m.host->run(rng);
  const Scalar* base = m.host->train_data().X.data();
  REQUIRE(m.host->batches.size() == 4);
  for (int i = 0; i < 4; ++i) CHECK(m.host->batches[static_cast<std::size_t>(i)] == base + i * 50 * 2);
}

TEST_CASE("standard trainer: divergence names the step, a stop request ends early") {
  auto d = xor_trainer_setup({{"steps", std::int64_t(2000)}}, 100.0, "squared");  // |1 − lr·λ| > 1: blows up
  Rng rng(1);
  CHECK_THROWS_WITH(d.host->run(rng), Catch::Contains("training diverged at step"));
  auto s = xor_trainer_setup({{"steps", std::int64_t(100)}});
  s.host->stop_after = 7;
  s.host->run(rng);
  CHECK(s.host->done == 7);
  CHECK(s.host->evaluated.back() == 7);
}

namespace {
ProbeInput input(Model& model, Loss& loss, const Dataset& train, const Dataset& test, const FeatureSet& features,
                 const std::vector<NamedAttack>& attacks) {
  return ProbeInput{model, loss, train, test, features, attacks, 0};
}
double metric(const Measurements& m, const std::string& name) {
  for (const auto& [k, v] : m.scalars()) {
    if (k == name) return v;
  }
  FAIL("no metric " << name);
  return 0;
}
}  // namespace

TEST_CASE("accuracy probe: overall, against metadata, per group") {
  DataSpec s;
  s.dim = 2;
  s.classes = 2;
  auto model = harness().make<Model>("linear", {}, s);
  model->block("W") << 1, 0;  // predicts class 1 iff x0 > 0
  auto loss = harness().make<Loss>("logistic", {}, s);
  Dataset d;
  d.X.resize(4, 2);
  d.X << 1, 0, -1, 0, 2, 0, -3, 0;
  d.y.resize(4);
  d.y << 1, 1, 1, 0;  // right, wrong, right, right
  d.classes = 2;
  d.meta["y_clean"] = VecD::Ones(4);
  d.meta["is_noisy"] = (VecD(4) << 0, 0, 1, 1).finished();
  FeatureSet f;
  std::vector<NamedAttack> none;
  Measurements m;
  harness().make<Probe>("accuracy", {{"group_by", std::string("is_noisy")}}, s)->measure(input(*model, *loss, d, d, f, none), m);
  CHECK(metric(m, "train") == Approx(0.75));
  CHECK(metric(m, "train.is_noisy=0") == Approx(0.5));
  CHECK(metric(m, "train.is_noisy=1") == Approx(1.0));
  // Balanced: class 1 has 2 of 3 right, class 0 its one sample; a constant prediction would score ½.
  Measurements b;
  harness().make<Probe>("accuracy", {{"balanced", true}}, s)->measure(input(*model, *loss, d, d, f, none), b);
  CHECK(metric(b, "test.balanced") == Approx((2.0 / 3 + 1.0) / 2));
  model->block("W") << 0, 1;  // every x1 is 0: one class for all
  Measurements constant;
  harness().make<Probe>("accuracy", {{"balanced", true}}, s)->measure(input(*model, *loss, d, d, f, none), constant);
  CHECK(metric(constant, "test.balanced") == Approx(0.5));
  model->block("W") << 1, 0;
  Measurements c;
  harness().make<Probe>("accuracy", {{"against", std::string("y_clean")}}, s)->measure(input(*model, *loss, d, d, f, none), c);
  CHECK(metric(c, "test") == Approx(0.5));
  CHECK_THROWS_WITH(harness().make<Probe>("accuracy", {{"group_by", std::string("colour")}}, s)
                        ->measure(input(*model, *loss, d, d, f, none), c),
                    Catch::Contains("columns: is_noisy, y_clean"));
}

TEST_CASE("neuron-feature-cosine equals a per-pair loop, weight norms") {
  DataSpec s;
  s.dim = 3;
  s.classes = 2;
  auto model = harness().make<Model>("two-layer", {{"width", std::int64_t(5)}}, s);
  Rng rng(3);
  model->init(rng);
  auto loss = harness().make<Loss>("logistic", {}, s);
  Mat F(2, 3);
  F << 1, 0, 0, 1, 1, 1;
  FeatureSet features{{"means", F}};
  Dataset empty;
  std::vector<NamedAttack> none;
  Measurements m;
  harness().make<Probe>("neuron-feature-cosine", {}, s)->measure(input(*model, *loss, empty, empty, features, none), m);
  const auto W = model->block("W");
  double best1 = -2;
  for (Index j = 0; j < 5; ++j) best1 = std::max(best1, double(W.row(j).dot(F.row(1)) / (W.row(j).norm() * F.row(1).norm())));
  CHECK(metric(m, "best.1") == Approx(best1).epsilon(1e-5));
  REQUIRE(m.tables().size() == 1);
  CHECK(m.tables()[0].second.values.rows() == 5);
  CHECK_THROWS_WITH(harness().make<Probe>("neuron-feature-cosine", {{"features", std::string("atoms")}}, s)
                        ->measure(input(*model, *loss, empty, empty, features, none), m),
                    Catch::Contains("it has: means"));
  // antipodes: f and −f scored apart. A network whose only neuron lies along f covers f, not −f.
  auto single = harness().make<Model>("two-layer", {{"width", std::int64_t(1)}}, s);
  Rng single_rng(1);
  single->init(single_rng);
  single->block("W") << 1, 0, 0;
  Measurements both, unsigned_cos;
  harness().make<Probe>("neuron-feature-cosine", {{"antipodes", true}}, s)->measure(input(*single, *loss, empty, empty, features, none), both);
  CHECK(metric(both, "best.0") == Approx(1.0));
  CHECK(metric(both, "best.2") == Approx(-1.0));  // −f_0
  CHECK(metric(both, "min_best") == Approx(-1.0));
  harness().make<Probe>("neuron-feature-cosine", {{"signed", false}}, s)->measure(input(*single, *loss, empty, empty, features, none), unsigned_cos);
  CHECK(metric(unsigned_cos, "min_best") == Approx(1 / std::sqrt(3.0)).epsilon(1e-5));
  CHECK_THROWS_WITH(harness().make<Probe>("neuron-feature-cosine", {{"antipodes", true}, {"signed", false}}, s), Catch::Contains("needs signed"));
  Measurements n;
  harness().make<Probe>("weight-norms", {}, s)->measure(input(*model, *loss, empty, empty, features, none), n);
  CHECK(metric(n, "W.fro") == Approx(double(W.norm())));
  CHECK(metric(n, "W.row_max") == Approx(double(W.rowwise().norm().maxCoeff())));
}

TEST_CASE("attacks stay in their ball and PGD reaches the linear optimum") {
  DataSpec s;
  s.dim = 3;
  s.classes = 2;
  auto model = harness().make<Model>("linear", {{"bias", false}}, s);
  model->block("W") << 3, 4, 0;  // ‖w‖ = 5; margin y·⟨w,x⟩ drops by at most r·‖w‖
  Dataset d;
  d.X.resize(2, 3);
  d.X << 1, 1, 0, -1, 0, 2;
  d.y.resize(2);
  d.y << 1, 0;
  d.classes = 2;
  const Batch b = Batch::of(d);
  Rng rng(1);
  auto pgd = harness().make<Attack>("pgd-l2", {{"steps", std::int64_t(30)}}, s);
  Mat adv(2, 3), out(2, 1);
  pgd->perturb(*model, b, 0.5, adv, rng);
  CHECK(((adv - d.X).rowwise().norm().array() <= Scalar(0.5 + 1e-5)).all());
  model->forward(adv, out);
  CHECK(out(0, 0) == Approx(7 - 2.5).epsilon(1e-4));   // y = +1: 7 − r‖w‖
  CHECK(out(1, 0) == Approx(-3 + 2.5).epsilon(1e-4));  // y = −1: margin 3 − r‖w‖
  auto fgsm = harness().make<Attack>("fgsm", {}, s);
  fgsm->perturb(*model, b, 0.1, adv, rng);
  CHECK((adv - d.X).cwiseAbs().maxCoeff() == Approx(0.1).epsilon(1e-5));
  auto fgsm2 = harness().make<Attack>("fgsm", {{"norm", std::string("l2")}}, s);
  fgsm2->perturb(*model, b, 0.5, adv, rng);
  model->forward(adv, out);
  CHECK(out(0, 0) == Approx(4.5).epsilon(1e-4));
}

TEST_CASE("robust-accuracy takes the worst case over attacks") {
  DataSpec s;
  s.dim = 3;
  s.classes = 2;
  auto model = harness().make<Model>("linear", {{"bias", false}}, s);
  model->block("W") << 3, 4, 0;
  auto loss = harness().make<Loss>("logistic", {}, s);
  Dataset d;
  d.X.resize(2, 3);
  d.X << 1, 1, 0, -1, 0, 2;  // margins 7 and 3: flipped at r > 1.4 and r > 0.6
  d.y.resize(2);
  d.y << 1, 0;
  d.classes = 2;
  auto pgd = harness().make<Attack>("pgd-l2", {}, s);
  std::vector<NamedAttack> attacks{{"pgd-l2", pgd.get()}};
  FeatureSet f;
  Measurements m;
  harness().make<Probe>("robust-accuracy", {{"radii", std::vector<double>{0.5, 1.0, 2.0}}}, s)
      ->measure(input(*model, *loss, d, d, f, attacks), m);
  CHECK(metric(m, "clean") == 1.0);
  CHECK(metric(m, "r=0.5") == 1.0);
  CHECK(metric(m, "r=1") == 0.5);
  CHECK(metric(m, "r=2") == 0.0);
  std::vector<NamedAttack> none;
  CHECK_THROWS_WITH(harness().make<Probe>("robust-accuracy", {}, s)->measure(input(*model, *loss, d, d, f, none), m),
                    Catch::Contains("[[attack]]"));
}

namespace {
// An attack that records the samples it is given, then lets another attack do the work.
class RecordingAttack : public Attack {
 public:
  explicit RecordingAttack(Attack& inner) : inner_(inner) {}
  void perturb(Model& model, const Batch& batch, double radius, MatRef X_adv, Rng& rng) override {
    seen.push_back(Mat(batch.X()));
    inner_.perturb(model, batch, radius, X_adv, rng);
  }
  std::vector<Mat> seen;

 private:
  Attack& inner_;
};
}  // namespace

TEST_CASE("robust-accuracy attacks with each attack only the samples the earlier ones left standing") {
  DataSpec s;
  s.dim = 3;
  s.classes = 2;
  auto model = harness().make<Model>("linear", {{"bias", false}}, s);
  model->block("W") << 3, 4, 0;
  auto loss = harness().make<Loss>("logistic", {}, s);
  Dataset d;
  d.X.resize(3, 3);
  d.X << 1, 1, 0, -1, 0, 2, 2, 1, 1;  // margins 7, 3 and 10
  d.y.resize(3);
  d.y << 1, 0, 1;
  d.classes = 2;
  // ℓ∞ at r = 0.5 lowers a margin by r‖w‖₁ = 3.5: the second sample falls; PGD (ℓ2, by r‖w‖₂ = 2.5) then sees only
  // the first and third, and neither falls. At r = 1.5: ℓ∞ (−10.5) takes all three, so PGD is not run.
  auto fgsm = harness().make<Attack>("fgsm", {}, s);
  auto pgd = harness().make<Attack>("pgd-l2", {}, s);
  RecordingAttack first(*fgsm), second(*pgd);
  std::vector<NamedAttack> attacks{{"fgsm", &first}, {"pgd-l2", &second}};
  FeatureSet f;
  Measurements m;
  harness().make<Probe>("robust-accuracy", {{"radii", std::vector<double>{0.5, 1.5}}}, s)
      ->measure(input(*model, *loss, d, d, f, attacks), m);
  CHECK(metric(m, "r=0.5") == Approx(2.0 / 3.0));
  CHECK(metric(m, "r=1.5") == 0.0);
  REQUIRE(first.seen.size() == 2);
  CHECK(first.seen[0] == d.X);
  REQUIRE(second.seen.size() == 1);
  const Mat survivors = (Mat(2, 3) << 1, 1, 0, 2, 1, 1).finished();
  CHECK(second.seen[0] == survivors);
  // The verdicts are those of every attack on every sample.
  Mat adv(3, 3), out(3, 1);
  Rng rng(1);
  Eigen::Array<bool, Eigen::Dynamic, 1> robust = Eigen::Array<bool, Eigen::Dynamic, 1>::Constant(3, true);
  for (Attack* a : {fgsm.get(), pgd.get()}) {
    a->perturb(*model, Batch::of(d), 0.5, adv, rng);
    model->forward(adv, out);
    for (Index i = 0; i < 3; ++i) robust(i) = robust(i) && (out(i, 0) > 0) == (d.y(i) == 1);
  }
  CHECK(robust.count() == 2);
}

TEST_CASE("gaussian-mixture: antipodal clusters ±e_l up to r = 2·dim, a pair per class, no linear signal") {
  auto dist = harness().make<Distribution>("gaussian-mixture", {{"means", std::string("antipodal")}, {"dim", std::int64_t(3)},
                                                                {"clusters", std::int64_t(6)}, {"mean_norm", 2.0},
                                                                {"sigma", 0.1}, {"balanced", true}}, {});
  const FeatureSet f = dist->features();
  const Mat& centres = f.at("centres");
  REQUIRE(centres.rows() == 6);
  for (Index j = 0; j < 6; ++j) {
    CHECK(centres(j, j / 2) == (j % 2 == 0 ? 2 : -2));
    CHECK(centres.row(j).cwiseAbs().sum() == 2);
  }
  CHECK(f.at("cluster_labels") == (Mat(1, 6) << -1, -1, 1, 1, -1, -1).finished());  // pair l: class l mod 2
  Dataset d;
  Rng rng(5);
  dist->sample(6000, Split::Train, rng, d);
  const VecD y = (d.y.cast<double>().array() * 2 - 1).matrix();
  const VecD signal = d.X.cast<double>().transpose() * y / 6000.0;  // E[yx] = 0: each pair cancels
  CHECK(signal.cwiseAbs().maxCoeff() < 0.05);
  // clusters = "auto" is one pair per class; too few clusters for the classes, or a dimension too small, are refused
  auto pairs = harness().make<Distribution>("gaussian-mixture", {{"means", std::string("antipodal")}, {"dim", std::int64_t(2)}}, {});
  CHECK(pairs->features().at("centres").rows() == 4);
  CHECK_THROWS_WITH(harness().make<Distribution>("gaussian-mixture", {{"means", std::string("antipodal")}, {"dim", std::int64_t(2)},
                                                                     {"clusters", std::int64_t(5)}}, {}),
                    Catch::Contains("2·dim >= the number of clusters"));
  CHECK_THROWS_WITH(harness().make<Distribution>("gaussian-mixture", {{"means", std::string("antipodal")}, {"dim", std::int64_t(4)},
                                                                     {"clusters", std::int64_t(3)}}, {}),
                    Catch::Contains("leave a class without a cluster"));
  CHECK_THROWS_WITH(harness().make<Distribution>("gaussian-mixture", {{"means", std::string("antipodal")}, {"preset", std::string("xor4")}}, {}),
                    Catch::Contains("xor4\" fixes means"));
}

TEST_CASE("gaussian-mixture: the plain mixture draws exactly as before the chapter-3 keys (labels, then noise)") {
  // An independent replay of the original sampler: y_i = integer(0, k − 1) (or a permutation when balanced),
  // then N(0, σ²) noise for the whole matrix, then the class mean; random means from the component's stream.
  for (const bool balanced : {false, true}) {
    auto dist = harness().make<Distribution>("gaussian-mixture", {{"classes", std::int64_t(3)}, {"dim", std::int64_t(5)},
                                                                  {"means", std::string("random")}, {"sigma", 0.3},
                                                                  {"mean_norm", 2.0}, {"balanced", balanced}}, {});
    Rng stream(derive_seed(1, "gaussian-mixture"));
    Mat means(3, 5);
    stream.fill_normal(means);
    for (Index c = 0; c < 3; ++c) means.row(c) *= Scalar(2) / means.row(c).norm();
    CHECK(dist->features().at("means") == means);
    Dataset d;
    Rng rng(21);
    dist->sample(301, Split::Train, rng, d);
    Rng replay(21);
    IVec y(301);
    if (balanced) {
      const std::vector<Index> order = replay.permutation(301);
      for (Index i = 0; i < 301; ++i) y(order[static_cast<std::size_t>(i)]) = static_cast<std::int32_t>(i % 3);
    } else {
      for (Index i = 0; i < 301; ++i) y(i) = static_cast<std::int32_t>(replay.integer(0, 2));
    }
    Mat X(301, 5);
    replay.fill_normal(X, 0.3);
    for (Index i = 0; i < 301; ++i) X.row(i) += means.row(y(i));
    CHECK(d.y == y);
    CHECK(d.X == X);
    CHECK(d.meta.empty());
    CHECK(dist->spec().meta.empty());
  }
  // The new features of the plain mixture: centres = means, unit directions, one cluster per class.
  auto plain = harness().make<Distribution>("gaussian-mixture", {{"mean_norm", 3.0}}, {});
  const FeatureSet f = plain->features();
  CHECK(f.at("centres") == f.at("means"));
  CHECK(f.at("directions") == f.at("means") / Scalar(3));
  CHECK(f.at("cluster_labels") == (Mat(1, 2) << -1, 1).finished());
}

TEST_CASE("gaussian-mixture: r clusters with classes, weights and per-cluster sigmas (Shi 2024 §3.4.1, B.5.2)") {
  const Overrides general{{"classes", std::int64_t(2)},
                          {"dim", std::int64_t(5)},
                          {"clusters", std::int64_t(3)},
                          {"cluster_labels", std::vector<std::int64_t>{1, 0, 1}},
                          {"weights", std::vector<double>{5, 3, 2}},
                          {"sigmas", std::vector<double>{0.1, 0.5, 1.0}},
                          {"mean_norm", 3.0}};
  auto dist = harness().make<Distribution>("gaussian-mixture", general, {});
  const FeatureSet f = dist->features();
  const Mat& mu = f.at("centres");
  REQUIRE(mu.rows() == 3);
  CHECK((mu * mu.transpose()).isApprox(Mat(9 * Mat::Identity(3, 3))));
  CHECK(f.at("cluster_labels") == (Mat(1, 3) << 1, -1, 1).finished());
  CHECK(f.at("cluster_classes") == (Mat(1, 3) << 1, 0, 1).finished());
  CHECK(dist->spec().meta == std::vector<std::string>{"cluster"});
  const Index n = 30000;
  Dataset d;
  Rng rng(4);
  dist->sample(n, Split::Train, rng, d);
  const VecD& cluster = d.meta.at("cluster");
  const double weights[] = {0.5, 0.3, 0.2}, sigmas[] = {0.1, 0.5, 1.0};
  const int classes[] = {1, 0, 1};
  for (Index j = 0; j < 3; ++j) {
    double count = 0, noise = 0;
    for (Index i = 0; i < n; ++i) {
      if (cluster(i) != double(j)) continue;
      count += 1;
      noise += static_cast<double>((d.X.row(i) - mu.row(j)).squaredNorm());
      REQUIRE(d.y(i) == classes[j]);
    }
    CHECK(count / n == Approx(weights[j]).margin(0.012));
    CHECK(std::sqrt(noise / (count * 5)) == Approx(sigmas[j]).epsilon(0.03));  // σ_j: per-coordinate std
  }
  // balanced: exact cluster counts n p_j, the remainder to the largest fractional parts.
  Overrides exact = general;
  exact["balanced"] = true;
  auto counted = harness().make<Distribution>("gaussian-mixture", exact, {});
  Dataset b;
  counted->sample(1001, Split::Train, rng, b);
  CHECK((b.meta.at("cluster").array() == 0).count() == 501);
  CHECK((b.meta.at("cluster").array() == 1).count() == 300);
  CHECK((b.meta.at("cluster").array() == 2).count() == 200);
  // Defaults of the general form: equal weights, class j mod classes, sigma for all.
  auto four = harness().make<Distribution>("gaussian-mixture", {{"clusters", std::int64_t(4)}, {"dim", std::int64_t(4)}}, {});
  CHECK(four->features().at("cluster_classes") == (Mat(1, 4) << 0, 1, 0, 1).finished());
  const auto make = [](const Overrides& o) { return harness().make<Distribution>("gaussian-mixture", o, {}); };
  CHECK_THROWS_WITH(make({{"clusters", std::int64_t(3)}, {"cluster_labels", std::vector<std::int64_t>{0, 1}}}),
                    Catch::Contains("cluster_labels has 2 entries"));
  CHECK_THROWS_WITH(make({{"cluster_labels", std::vector<std::int64_t>{0, 2}}}), Catch::Contains("outside [0, classes"));
  CHECK_THROWS_WITH(make({{"cluster_labels", std::vector<std::int64_t>{1, 1}}}), Catch::Contains("class 0 no cluster"));
  CHECK_THROWS_WITH(make({{"weights", std::vector<double>{1, 2, 3}}}), Catch::Contains("weights has 3 entries"));
  CHECK_THROWS_WITH(make({{"weights", std::vector<double>{0, 0}}}), Catch::Contains("weights sum to 0"));
  CHECK_THROWS_WITH(make({{"sigmas", std::vector<double>{1.0}}}), Catch::Contains("sigmas has 1 entries"));
  CHECK_THROWS_WITH(make({{"clusters", std::int64_t(12)}}), Catch::Contains("dim >= the number of clusters"));
  CHECK_THROWS_WITH(make({{"sigmas", std::vector<double>{1.0, -1.0}}}), Catch::Contains("sigmas"));
}
