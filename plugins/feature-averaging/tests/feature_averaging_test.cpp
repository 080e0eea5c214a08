// The feature-averaging pack on its own: the cluster distribution, Theorems D.1–D.3 and Prop. 4.8's
// constructions (App. D) under the analytic attacks and PGD, and the partition readout.
#include <featurelab/model_comparison.hpp>
#include <featurelab/readout.hpp>
#include <featurelab/testing.hpp>

#include <catch2/catch.hpp>

#include <cmath>

using namespace featurelab;

namespace {

testing::Harness& pack() { return testing::pack(FEATURE_AVERAGING_PLUGIN); }
testing::Harness& std_pack() { return testing::pack(FEATURELAB_STD_PLUGIN); }

struct Sample {
  std::shared_ptr<Distribution> dist;
  FeatureSet features;
  Dataset data;
  DataSpec spec;
};

Sample clusters(const std::string& label, Index n, std::uint64_t seed = 1, double alpha = 1.0, int dim = 3072) {
  Sample s;
  s.dist = pack().make<Distribution>("orthogonal-clusters", {{"label", label}, {"alpha", alpha}, {"dim", std::int64_t(dim)}}, {}, seed);
  s.features = s.dist->features();
  s.spec = s.dist->spec();
  Rng rng(seed);
  s.dist->sample(n, Split::Test, rng, s.data);
  return s;
}

// Fraction of samples that every attack leaves right at this radius, under the readout.
double robust(Model& model, const Sample& s, const std::vector<Attack*>& attacks, double radius, const Readout& readout) {
  const Batch batch = Batch::of(s.data);
  Mat X_adv(batch.n, batch.dim), out(batch.n, model.outputs());
  Eigen::Array<bool, Eigen::Dynamic, 1> ok = Eigen::Array<bool, Eigen::Dynamic, 1>::Constant(batch.n, true);
  Rng rng(7);
  for (Attack* a : attacks) {
    a->perturb(model, batch, radius, X_adv, rng);
    CHECK(((X_adv - s.data.X).rowwise().norm().array() <= Scalar(radius * 1.0001 + 1e-3)).all());
    model.forward(X_adv, out);
    ok = ok && readout.correct(out, batch.Y());
  }
  return static_cast<double>(ok.count()) / static_cast<double>(batch.n);
}

}  // namespace

TEST_CASE("orthogonal-clusters: centres of norm sqrt(d), the partition, both label views") {
  const Sample b = clusters("binary", 2000);
  const Mat& mu = b.features.at("centres");
  REQUIRE(mu.rows() == 10);
  const Mat gram = mu * mu.transpose();
  CHECK((gram - Mat::Identity(10, 10) * Scalar(3072)).cwiseAbs().maxCoeff() < Scalar(1e-2));
  CHECK(b.features.at("partition").row(0).sum() == 0);  // five on each side
  CHECK(b.spec.classes == 2);
  const VecD& cluster = b.data.meta.at("cluster");
  for (Index i = 0; i < b.data.size(); ++i) {
    const auto j = static_cast<Index>(cluster(i));
    CHECK(b.data.y(i) == (b.features.at("partition")(0, j) > 0 ? 1 : 0));
    // x = μ_j + ξ: the own centre scores d ± O(√d), the others O(√d).
    Index best = 0;
    (b.data.X.row(i) * mu.transpose()).maxCoeff(&best);
    CHECK(best == j);
  }
  const Sample c = clusters("cluster", 50);
  CHECK(c.spec.classes == 10);
  for (Index i = 0; i < c.data.size(); ++i) CHECK(c.data.y(i) == static_cast<std::int32_t>(c.data.meta.at("cluster")(i)));
  // Near-orthogonal centres keep the norm and have the chosen cosine.
  auto near = pack().make<Distribution>("orthogonal-clusters", {{"pairwise_cos", 0.09}, {"dim", std::int64_t(64)},
                                                               {"basis", std::string("random-orthogonal")}}, {});
  const Mat m = near->features().at("centres");
  CHECK(m.row(0).norm() == Approx(8).epsilon(1e-4));
  CHECK(m.row(0).dot(m.row(3)) / 64 == Approx(0.09).epsilon(1e-3));
  CHECK_THROWS_WITH(pack().make<Distribution>("orthogonal-clusters", {{"dim", std::int64_t(5)}}, {}), Catch::Contains("dim >= 10"));
  CHECK_THROWS_WITH(pack().make<Distribution>("orthogonal-clusters", {{"positive", std::vector<std::int64_t>{0, 12}}}, {}),
                    Catch::Contains("outside 0..9"));
}

TEST_CASE("balanced sampling puts n/k samples in every cluster") {
  auto dist = pack().make<Distribution>("orthogonal-clusters", {{"sampling", std::string("balanced")}, {"dim", std::int64_t(32)}}, {});
  Dataset d;
  Rng rng(2);
  dist->sample(1000, Split::Train, rng, d);
  VecD counts = VecD::Zero(10);
  for (Index i = 0; i < d.size(); ++i) counts(static_cast<Index>(d.meta.at("cluster")(i))) += 1;
  CHECK(counts.minCoeff() == 100);
  CHECK(counts.maxCoeff() == 100);
}

TEST_CASE("Theorem D.1/D.2: the averaged network is accurate and breaks at about sqrt(d/k)") {
  const Sample s = clusters("binary", 400);
  auto model = pack().make<Model>("feature-construction", {{"kind", std::string("average")}}, s.spec, 1, &s.features);
  auto fa = pack().make<Attack>("feature-averaging-direction", {}, s.spec, 1, &s.features);
  const Readout direct = Readout::outputs();
  CHECK(robust(*model, s, {}, 0, direct) >= 0.99);
  const double flip = std::sqrt(3072.0 / 10);  // α√(d/k) = 17.5
  CHECK(robust(*model, s, {fa.get()}, 0.8 * flip, direct) >= 0.9);
  CHECK(robust(*model, s, {fa.get()}, 1.2 * flip, direct) <= 0.0);
}

TEST_CASE("Theorem D.3: the decoupled network is robust to sqrt(d)/3 under every attack") {
  const Sample s = clusters("binary", 300);
  auto model = pack().make<Model>("feature-construction", {{"kind", std::string("decoupled")}}, s.spec, 1, &s.features);
  auto fa = pack().make<Attack>("feature-averaging-direction", {}, s.spec, 1, &s.features);
  auto opposite = pack().make<Attack>("nearest-opposite-centre", {}, s.spec, 1, &s.features);
  auto pgd = std_pack().make<Attack>("pgd-l2", {{"steps", std::int64_t(30)}, {"step_size", 0.1}}, s.spec, 1, &s.features);
  const Readout direct = Readout::outputs();
  CHECK(robust(*model, s, {fa.get(), opposite.get(), pgd.get()}, std::sqrt(3072.0) / 3, direct) >= 0.99);
  // The true radius is larger: √d/2 along −μ_own switches the own neuron off (f = 0 → −1).
  CHECK(robust(*model, s, {opposite.get()}, std::sqrt(3072.0 / 2) * 1.2, direct) <= 0.05);
}

TEST_CASE("Prop. 4.8: a k-class network with tiny loss whose binary readout still breaks at O(sqrt(d/k))") {
  const Sample s = clusters("cluster", 300);
  auto model = pack().make<Model>("feature-construction", {{"kind", std::string("prop48")}}, s.spec, 1, &s.features);
  auto ce = std_pack().make<Loss>("cross-entropy", {}, s.spec);
  CHECK(ce->evaluate(*model, Batch::of(s.data)) <= 1e-6);
  const Readout partition = Readout::partition(s.features.at("partition").row(0).transpose().cast<double>());
  CHECK(robust(*model, s, {}, 0, partition) >= 0.99);
  auto fa = pack().make<Attack>("feature-averaging-direction", {{"readout", std::string("partition")}}, s.spec, 1, &s.features);
  // The logits are ≈ 2d (own) and ≈ d (same side); the attack moves each by ∓(1 + k/2)δ√(d/k).
  CHECK(robust(*model, s, {fa.get()}, 3 * 2 * std::sqrt(3072.0 / 10), partition) <= 0.05);
  CHECK(robust(*model, s, {fa.get()}, 1.2 * std::sqrt(3072.0 * 10) / 6, partition) <= 0.05);
}

TEST_CASE("the partition readout: decisions follow sum p+ - sum p-, the margin is LSE+ - LSE-, ties go to -") {
  VecD signs(4);
  signs << 1, 1, -1, -1;
  const Readout r = Readout::partition(signs);
  Mat out(3, 4);
  out << 2, 0, 1, 1,   // p+ > p−
      0, 0, 0, 0,      // a tie
      -1, -1, 3, -5;   // p− wins
  IVec y(3);
  y << 0, 1, 3;  // sides +, +, −
  Mat dm(3, 4);
  const Vec m = r.margins(out, ConstIVecMap(y.data(), 3), dm);
  CHECK(m(0) == Approx(std::log(std::exp(2.0) + 1) - std::log(2 * std::exp(1.0))).epsilon(1e-5));
  CHECK(m(1) == Approx(0).margin(1e-6));
  const auto ok = r.correct(out, ConstIVecMap(y.data(), 3));
  CHECK(ok(0));
  CHECK_FALSE(ok(1));  // sgn(0) = −1, and the label is on the + side
  CHECK(ok(2));
  // d margin / d out by finite differences.
  for (Index j = 0; j < 4; ++j) {
    Mat shifted = out;
    shifted(0, j) += Scalar(1e-3);
    Mat scratch(3, 4);
    const Vec m2 = r.margins(shifted, ConstIVecMap(y.data(), 3), scratch);
    CHECK((m2(0) - m(0)) / Scalar(1e-3) == Approx(dm(0, j)).margin(2e-3));
  }
  Mat wrong(1, 3);
  IVec one(1);
  one << 0;
  Mat dwrong(1, 3);
  CHECK_THROWS_WITH(r.margins(wrong, ConstIVecMap(one.data(), 1), dwrong), Catch::Contains("3 outputs"));
  VecD same(2);
  same << 1, 1;
  CHECK_THROWS_WITH(Readout::partition(same), Catch::Contains("both sides"));
}

namespace {

Measurements measure(Probe& probe, Model& model, const Sample& s, Index step = 100) {
  auto loss = std_pack().make<Loss>("logistic", {}, s.spec);
  std::vector<NamedAttack> attacks;
  Measurements out;
  probe.measure(ProbeInput{model, *loss, s.data, s.data, s.features, attacks, step}, out);
  return out;
}

double scalar(const Measurements& m, const std::string& name) {
  for (const auto& [n, v] : m.scalars()) {
    if (n == name) return v;
  }
  FAIL("no metric " << name);
  return 0;
}

}  // namespace

TEST_CASE("Theorem 4.6's distance is 0 for a feature-averaging network and large for the decoupled one") {
  const Sample s = clusters("binary", 200, 1, 1.0, 256);
  auto probe = pack().make<Probe>("functional-distance", {{"random_starts", std::int64_t(8)}}, s.spec);
  // f_θavg with b = 0 is C·f_FA (App. D.1): the search finds C and nothing left over.
  auto average = pack().make<Model>("feature-construction", {{"kind", std::string("average")}}, s.spec, 1, &s.features);
  const Measurements fa = measure(*probe, *average, s);
  CHECK(scalar(fa, "relative") <= 1e-3);
  CHECK(scalar(fa, "scale") > 0);
  // One neuron per centre is no multiple of f_FA: on the sphere at a centre it gives ≈ √d and f_FA ≈ √d too,
  // but at (μ_1 − μ_2)/√2 (two centres of one side) f_dec = √(d/2) while f_FA = 0.
  auto decoupled = pack().make<Model>("feature-construction", {{"kind", std::string("decoupled")}}, s.spec, 1, &s.features);
  CHECK(scalar(measure(*probe, *decoupled, s), "relative") >= 0.3);
  // A k-output net has no f_FA to compare with: nothing is recorded.
  const Sample multi = clusters("cluster", 50, 1, 1.0, 256);
  auto k_class = pack().make<Model>("feature-construction", {{"kind", std::string("prop48")}}, multi.spec, 1, &multi.features);
  CHECK(measure(*probe, *k_class, multi).scalars().empty());
}

TEST_CASE("margin-balance: the spread of the training margins and its ratio to their mean") {
  const Sample s = clusters("binary", 300, 2, 1.0, 256);
  auto average = pack().make<Model>("feature-construction", {{"kind", std::string("average")}}, s.spec, 1, &s.features);
  auto probe = pack().make<Probe>("margin-balance", {}, s.spec);
  const Measurements m = measure(*probe, *average, s);
  Mat f(s.data.size(), 1);
  average->forward(s.data.X, f);
  double lo = 1e300, hi = -1e300, sum = 0;
  for (Index i = 0; i < f.rows(); ++i) {
    const double q = (s.data.y(i) == 1 ? 1.0 : -1.0) * f(i, 0);
    lo = std::min(lo, q);
    hi = std::max(hi, q);
    sum += q;
  }
  CHECK(scalar(m, "gap") == Approx(hi - lo).epsilon(1e-5));
  CHECK(scalar(m, "mean") == Approx(sum / f.rows()).epsilon(1e-5));
  CHECK(scalar(m, "relative_gap") == Approx((hi - lo) / (sum / f.rows())).epsilon(1e-5));
}

// Li et al.'s fixed constructions as std's layers: linear (hidden units, bias, fixed) → relu → linear (outputs,
// no bias, fixed), on the construction's own W, b, a: the same outputs and input gradients (the attacks' input).
TEST_CASE("feature-construction's networks composed of std layers equal the hand-written ones") {
  for (const std::string kind : {"average", "decoupled", "prop48"}) {
    INFO(kind);
    const Sample s = clusters(kind == "prop48" ? "cluster" : "binary", 60);
    auto hand = pack().make<Model>("feature-construction", {{"kind", kind}}, s.spec, 1, &s.features);
    const ParamBlock& W = *hand->find_block("W");
    const ParamBlock& a = *hand->find_block("a");
    ComponentSpec hidden = testing::layer("linear", {{"out", std::int64_t(W.rows)}, {"init", std::string("zero")},
                                                     {"trainable", false}});
    hidden.block_names = {"W", "b"};
    ComponentSpec readout = testing::layer("linear", {{"out", std::int64_t(a.rows)}, {"bias", false},
                                                      {"init", std::string("zero")}, {"trainable", false}});
    readout.block_names = {"a"};
    auto composed = std_pack().make<Model>(
        "network", {{"layer", testing::layers({hidden, testing::layer("relu"), readout})}}, s.spec, 1, &s.features);
    const testing::ModelComparison c = testing::compare_models(*hand, *composed, s.data.X);
    CHECK(c.failures(1e-5, 0.1) == "");
  }
}
