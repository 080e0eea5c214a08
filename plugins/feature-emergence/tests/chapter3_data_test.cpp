// Chapter 3's data distributions (Shi 2024 Sec. 3.4, App. B.5) and the hypercube mixture of App.
// A.7.3, each against an independent recomputation from its exposed ground truth: the structured
// parity's sign rule and mixture proportions read back from φ = Mᵀx, the hypercube's nearest-centre
// parity and noise level, the linear-separable assumptions of B.5.1, the multi-index target's moments
// and Alg. 7's residual, and the xor4 preset of std's gaussian-mixture (Assumption B.36).
#include <featurelab/error.hpp>
#include <featurelab/testing.hpp>

#include <catch2/catch.hpp>

#include <cmath>
#include <map>

using namespace featurelab;

namespace {

testing::Harness& data_pack() { return testing::pack(FEATURE_EMERGENCE_PLUGIN); }
testing::Harness& data_std() { return testing::pack(FEATURELAB_STD_PLUGIN); }

using Overrides = std::map<std::string, Value>;

Dataset draw(Distribution& dist, Index n, std::uint64_t seed = 11, Split split = Split::Train) {
  Dataset d;
  Rng rng(seed);
  dist.sample(n, split, rng, d);
  return d;
}

VecD signed_y(const Dataset& d) {
  VecD y(d.size());
  for (Index i = 0; i < d.size(); ++i) y(i) = d.y(i) == 1 ? 1.0 : -1.0;
  return y;
}

// E[y x] over the sample, per coordinate.
VecD mean_yx(const Dataset& d) { return d.X.cast<double>().transpose() * signed_y(d) / static_cast<double>(d.size()); }

double fraction(const VecD& column, double value) { return (column.array() == value).cast<double>().mean(); }

}  // namespace

TEST_CASE("structured-parity: sign rule, mixture proportions, symmetry, orthonormal M", "[chapter3-data]") {
  const Index d = 60, n = 40000;
  const int r = 3, k = 3;
  const double p_a = 0.1, p_o = 0.2;
  auto dist = data_pack().make<Distribution>(
      "structured-parity", {{"dim", std::int64_t(d)}, {"r", std::int64_t(r)}, {"k", std::int64_t(k)}, {"p_a", p_a},
                            {"p_o", p_o}, {"relevant", std::string("random")}}, {});
  const FeatureSet f = dist->features();
  const Mat& M = f.at("dictionary");
  const Mat& blocks = f.at("blocks");
  REQUIRE(M.rows() == d);
  CHECK((M * M.transpose() - Mat::Identity(d, d)).cwiseAbs().maxCoeff() < Scalar(1e-5));  // orthonormal
  REQUIRE(blocks.rows() == r);
  CHECK(blocks.sum() == Approx(r * k));
  CHECK((blocks.colwise().sum() - f.at("relevant")).cwiseAbs().maxCoeff() == 0);  // A = ∪ A_j, disjoint
  // D_j = Σ_{l∈A_j} M_l/√k: unit and mutually orthogonal.
  const Mat& D = f.at("directions");
  CHECK((D - blocks * M / std::sqrt(Scalar(k))).cwiseAbs().maxCoeff() < Scalar(1e-5));
  CHECK((D * D.transpose() - Mat::Identity(r, r)).cwiseAbs().maxCoeff() < Scalar(1e-5));
  // patterns: the rk relevant M_l, block by block; they span the same space as the blocks' indicators pick.
  const Mat& P = f.at("patterns");
  REQUIRE(P.rows() == r * k);
  CHECK((D - blocks * M / std::sqrt(Scalar(k))).cwiseAbs().maxCoeff() < Scalar(1e-5));
  for (int j = 0; j < r; ++j) {
    const Mat block_sum = P.middleRows(j * k, k).colwise().sum() / std::sqrt(Scalar(k));
    CHECK((block_sum - D.row(j)).cwiseAbs().maxCoeff() < Scalar(1e-5));
  }
  CHECK(((P * M.transpose()).cwiseAbs().rowwise().sum().array() - 1).abs().maxCoeff() < Scalar(1e-4));  // each one M_l

  const Dataset data = draw(*dist, n);
  REQUIRE(dist->spec().classes == 2);
  // φ = Mᵀx recovers the hidden vector: entries in {−1, 0, +1}.
  const Mat phi_raw = data.X * M.transpose();
  const Eigen::MatrixXd phi = phi_raw.cast<double>().array().round().matrix();
  CHECK((phi_raw.cast<double>() - phi).cwiseAbs().maxCoeff() < 1e-4);
  CHECK(phi.cwiseAbs().maxCoeff() == 1);
  // The label rule, recomputed: y = sign(Σ_j Π_{l∈A_j} φ_l), and which part of the mixture drew it.
  Index mismatched = 0, component_wrong = 0;
  std::vector<double> plus(r, 0), minus(r, 0);
  double uniform = 0;
  for (Index i = 0; i < n; ++i) {
    double sum = 0;
    int part = 0;
    bool others_zero = true;
    for (int j = 0; j < r; ++j) {
      double product = 1, count = 0, total = 0;
      for (Index l = 0; l < d; ++l) {
        if (blocks(j, l) == 0) continue;
        product *= phi(i, l);
        count += phi(i, l) != 0;
        total += phi(i, l);
      }
      sum += product;
      if (total == k) part = j + 1;
      if (total == -k) part = -(j + 1);
      if (count > 0 && total != k && total != -k) others_zero = false;
    }
    // X_{j,±}: block j all ±1 and every other block all 0; otherwise φ_A is in {±1}^{rk} (X_U).
    int nonzero_blocks = 0;
    for (int j = 0; j < r; ++j) nonzero_blocks += (blocks.row(j).cast<double>().array() * phi.row(i).array().abs()).sum() > 0;
    if (nonzero_blocks == 1 && others_zero) {
      (part > 0 ? plus : minus)[static_cast<std::size_t>(std::abs(part) - 1)] += 1;
    } else {
      uniform += 1;
      part = 0;
    }
    REQUIRE(sum != 0);  // never sign(0)
    mismatched += (sum > 0 ? 1 : 0) != data.y(i);
    component_wrong += data.meta.at("component")(i) != part;
  }
  CHECK(mismatched == 0);
  CHECK(component_wrong == 0);
  for (int j = 0; j < r; ++j) {
    CHECK(plus[static_cast<std::size_t>(j)] / n == Approx(p_a).margin(0.006));  // X_{j,+}: weight p_A
    CHECK(minus[static_cast<std::size_t>(j)] / n == Approx(p_a).margin(0.006));
    CHECK((plus[static_cast<std::size_t>(j)] + minus[static_cast<std::size_t>(j)]) / n == Approx(2 * p_a).margin(0.008));
  }
  CHECK(uniform / n == Approx(1 - 2 * r * p_a).margin(0.01));
  // The background: +1 and −1 with probability p_o each, 0 with 1 − 2p_o.
  double zeros = 0, ones = 0, cells = 0;
  for (Index l = 0; l < d; ++l) {
    if (f.at("relevant")(0, l) > 0) continue;
    zeros += (phi.col(l).array() == 0).cast<double>().sum();
    ones += (phi.col(l).array() == 1).cast<double>().sum();
    cells += static_cast<double>(n);
  }
  CHECK(zeros / cells == Approx(1 - 2 * p_o).margin(0.004));
  CHECK(ones / cells == Approx(p_o).margin(0.004));
  // Symmetric law P(φ) = P(−φ), y(−φ) = −y(φ): balanced labels. Remark B.45 also states E[yx] = 0, but yx is
  // even under the symmetry: X_U gives 0 (k >= 2: a block's parity is independent of each of its
  // coordinates) while X_{j,±} give yx = Σ_{l∈A_j} M_l, so E[yx] = 2 p_A Σ_{l∈A} M_l = 2 p_A √k Σ_j D_j.
  CHECK(data.y.cast<double>().mean() == Approx(0.5).margin(0.012));
  const VecD linear = (2 * p_a * f.at("relevant") * M).transpose().cast<double>();
  CHECK((mean_yx(data) - linear).cwiseAbs().maxCoeff() < 0.025);
  CHECK(linear.cwiseAbs().maxCoeff() > 0.1);  // a signal the check above would see missing
  // Under X_{j,±} the label is the block's sign: y ⟨D_j, x⟩ = √k there.
  const VecD y = signed_y(data);
  for (Index i = 0; i < 200; ++i) {
    const double c = data.meta.at("component")(i);
    if (c == 0) continue;
    const auto j = static_cast<Index>(std::abs(c)) - 1;
    CHECK(y(i) * static_cast<double>(data.X.row(i).dot(D.row(j))) == Approx(std::sqrt(double(k))).margin(1e-4));
  }
}

TEST_CASE("structured-parity presets: daniely-malach (M = I, p_A = 1/4, p_o = 1/2) and uniform (even k)", "[chapter3-data]") {
  auto dm = data_pack().make<Distribution>("structured-parity",
                                           {{"preset", std::string("daniely-malach")}, {"dim", std::int64_t(48)},
                                            {"k", std::int64_t(3)}}, {});
  const FeatureSet f = dm->features();
  CHECK(f.at("dictionary").isApprox(Mat::Identity(48, 48)));
  CHECK(f.at("directions").rows() == 1);
  const Dataset d = draw(*dm, 40000);
  const VecD& part = d.meta.at("component");
  CHECK(fraction(part, 1) == Approx(0.25).margin(0.008));  // X_{1,+}
  CHECK(fraction(part, -1) == Approx(0.25).margin(0.008));  // X_{1,−}
  CHECK(fraction(part, 0) == Approx(0.5).margin(0.01));
  const VecD yx = mean_yx(d);
  CHECK(yx.head(3).minCoeff() > 0.5 - 0.02);  // E[y φ_l] = 2 p_A = 1/2 on A (Daniely & Malach's linear signal)
  CHECK(yx.tail(45).cwiseAbs().maxCoeff() < 0.025);
  // p_o = 1/2: the background is ±1, never 0; M = I so x = φ; A = the first k coordinates.
  CHECK((d.X.rightCols(45).array() == 0).count() == 0);
  for (Index i = 0; i < 500; ++i) {
    CHECK(d.y(i) == (d.X(i, 0) * d.X(i, 1) * d.X(i, 2) > 0 ? 1 : 0));
  }

  auto uni = data_pack().make<Distribution>("structured-parity",
                                            {{"preset", std::string("uniform")}, {"dim", std::int64_t(20)},
                                             {"k", std::int64_t(4)}}, {});
  const Dataset u = draw(*uni, 20000);
  CHECK((u.X.array().abs() != 1).count() == 0);  // φ uniform on {±1}^d
  CHECK(fraction(u.meta.at("component"), 0) == 1);
  for (Index i = 0; i < u.size(); ++i) {
    REQUIRE(u.y(i) == (u.X(i, 0) * u.X(i, 1) * u.X(i, 2) * u.X(i, 3) > 0 ? 1 : 0));  // y = Π_{l∈A} φ_l, k even
  }
  CHECK(u.y.cast<double>().mean() == Approx(0.5).margin(0.015));
  CHECK(u.X.cast<double>().colwise().mean().cwiseAbs().maxCoeff() < 0.03);
  CHECK(mean_yx(u).cwiseAbs().maxCoeff() < 0.03);  // p_A = 0: E[yx] = 0, as Remark B.45 says

  const auto make = [](const Overrides& o) { return data_pack().make<Distribution>("structured-parity", o, {}); };
  CHECK_THROWS_WITH(make({{"k", std::int64_t(4)}}), Catch::Contains("odd k") && Catch::Contains("preset = \"uniform\""));
  CHECK_THROWS_WITH(make({{"r", std::int64_t(2)}}), Catch::Contains("odd r"));
  CHECK_THROWS_WITH(make({{"dim", std::int64_t(10)}, {"r", std::int64_t(3)}, {"k", std::int64_t(5)}}),
                    Catch::Contains("exceed dim"));
  CHECK_THROWS_WITH(make({{"r", std::int64_t(3)}, {"p_a", 0.2}}), Catch::Contains("p_a <= 1/(2r)"));
  CHECK_THROWS_WITH(make({{"preset", std::string("daniely-malach")}, {"p_a", 0.1}}), Catch::Contains("fixes p_a"));
  CHECK_THROWS_WITH(make({{"preset", std::string("uniform")}, {"r", std::int64_t(3)}}), Catch::Contains("fixes r"));
  CHECK_THROWS_WITH(make({{"p_o", 0.7}}), Catch::Contains("p_o"));
}

TEST_CASE("hypercube-gaussian-parity: y is the parity of the nearest centre, ‖centre‖ = √k, E‖g‖² = σ_r² k",
          "[chapter3-data]") {
  const Index d = 50, n = 20000;
  const int k = 4;
  const double sigma_r = 0.5;
  auto dist = data_pack().make<Distribution>(
      "hypercube-gaussian-parity", {{"dim", std::int64_t(d)}, {"k", std::int64_t(k)}, {"sigma_r", sigma_r}}, {});
  const FeatureSet f = dist->features();
  const Mat& C = f.at("centres");
  const Mat& M = f.at("directions");
  const Mat& labels = f.at("centre_labels");
  REQUIRE(C.rows() == 16);
  CHECK((M * M.transpose() - Mat::Identity(k, k)).cwiseAbs().maxCoeff() < Scalar(1e-5));
  CHECK((C.rowwise().norm().array() - std::sqrt(Scalar(k))).abs().maxCoeff() < Scalar(1e-5));
  CHECK(labels.sum() == 0);  // 8 vertices of each parity
  const Dataset data = draw(*dist, n);
  const VecD& cluster = data.meta.at("cluster");
  Index wrong_label = 0, wrong_cluster = 0;
  double noise = 0;
  std::vector<double> counts(16, 0);
  for (Index i = 0; i < n; ++i) {
    Index nearest = 0;
    (C.rowwise() - data.X.row(i)).rowwise().squaredNorm().minCoeff(&nearest);
    wrong_label += (labels(0, nearest) > 0 ? 1 : 0) != data.y(i);
    wrong_cluster += nearest != static_cast<Index>(cluster(i));
    noise += static_cast<double>((data.X.row(i) - C.row(static_cast<Index>(cluster(i)))).squaredNorm());
    counts[static_cast<std::size_t>(cluster(i))] += 1;
  }
  CHECK(wrong_label == 0);
  CHECK(wrong_cluster == 0);
  CHECK(noise / n == Approx(sigma_r * sigma_r * k).margin(0.01));  // E‖g‖² = σ_r² k = 1
  for (double c : counts) CHECK(c / n == Approx(1.0 / 16).margin(0.007));
  CHECK(data.y.cast<double>().mean() == Approx(0.5).margin(0.015));
  CHECK(mean_yx(data).cwiseAbs().maxCoeff() < 0.04);  // parity of k >= 2 signs: no linear signal
  // σ_r = 1 (Table A.6): the noise is as large as the signal.
  auto unit = data_pack().make<Distribution>("hypercube-gaussian-parity", {}, {});
  const Dataset u = draw(*unit, 5000);
  const Mat Cu = unit->features().at("centres");  // features() returns its set by value: a copy, not a reference
  double g2 = 0;
  for (Index i = 0; i < u.size(); ++i) {
    g2 += static_cast<double>((u.X.row(i) - Cu.row(static_cast<Index>(u.meta.at("cluster")(i)))).squaredNorm());
  }
  CHECK(g2 / 5000 == Approx(4.0).margin(0.1));
  CHECK_THROWS_WITH(data_pack().make<Distribution>("hypercube-gaussian-parity", {{"dim", std::int64_t(3)}}, {}),
                    Catch::Contains("exceeds dim"));
  CHECK_THROWS_WITH(data_pack().make<Distribution>("hypercube-gaussian-parity", {{"k", std::int64_t(17)}}, {}),
                    Catch::Contains("k"));
}

TEST_CASE("linear-separable: margin β, E[y P_⊥ x] = 0, ρ = β + √(2/π) (B.5.1's assumptions)", "[chapter3-data]") {
  const Index d = 10, n = 40000;
  const double beta = 0.3, noise = 2.0;
  auto dist = data_pack().make<Distribution>("linear-separable", {{"dim", std::int64_t(d)}, {"margin", beta}, {"noise", noise}}, {});
  const Mat w = dist->features().at("direction");
  REQUIRE(w.rows() == 1);
  CHECK(w.norm() == Approx(1).margin(1e-6));
  const Dataset data = draw(*dist, n);
  const VecD y = signed_y(data);
  const VecD along = (data.X * w.transpose()).cast<double>();
  const VecD s = y.cwiseProduct(along);  // y⟨w*, x⟩
  CHECK(s.minCoeff() >= beta - 1e-4);     // separable with margin β on every sample
  CHECK(s.minCoeff() < beta + 0.01);      // and β is the infimum
  CHECK(s.mean() == Approx(beta + std::sqrt(2 / M_PI)).margin(0.01));  // ρ
  const Eigen::MatrixXd perp = data.X.cast<double>() - along * w.cast<double>();  // P_⊥ x
  const VecD y_perp = perp.transpose() * y / static_cast<double>(n);
  CHECK(y_perp.cwiseAbs().maxCoeff() < 0.05);  // E[y P_⊥ x] = 0 (5σ at noise 2)
  CHECK(perp.rowwise().squaredNorm().mean() == Approx(noise * noise * (d - 1)).margin(0.5));
  CHECK(data.y.cast<double>().mean() == Approx(0.5).margin(0.012));
  auto balanced = data_pack().make<Distribution>("linear-separable", {{"balanced", true}}, {});
  CHECK(draw(*balanced, 1001).y.sum() == 501);
  CHECK_THROWS_WITH(data_pack().make<Distribution>("linear-separable", {{"margin", 0.0}}, {}), Catch::Contains("margin"));
}

TEST_CASE("multi-index-gaussian: E g* = 0, E g*² = 1, and Alg. 7's residual per sample set", "[chapter3-data]") {
  const Index d = 20, n = 100000;
  const int r = 3;
  auto plain = data_pack().make<Distribution>(
      "multi-index-gaussian", {{"dim", std::int64_t(d)}, {"r", std::int64_t(r)}, {"residualize", std::string("none")}}, {});
  const DataSpec spec = plain->spec();
  CHECK(spec.classes == 2);
  CHECK(spec.target_cols == 1);
  const Mat U = plain->features().at("directions");
  CHECK((U * U.transpose() - Mat::Identity(r, r)).cwiseAbs().maxCoeff() < Scalar(1e-5));
  const Dataset data = draw(*plain, n);
  REQUIRE(data.T.rows() == n);
  REQUIRE(data.T.cols() == 1);
  // g*(x) = Σ_i He_2(⟨x, u_i⟩)/√(2r), recomputed from the directions.
  const Eigen::MatrixXd z = (data.X * U.transpose()).cast<double>();
  const VecD g = (z.array().square() - 1).rowwise().sum().matrix() / std::sqrt(2.0 * r);
  CHECK((g - data.T.col(0).cast<double>()).cwiseAbs().maxCoeff() < 1e-4);
  CHECK((g - data.meta.at("g_star")).cwiseAbs().maxCoeff() < 1e-4);
  CHECK(g.mean() == Approx(0).margin(0.015));
  CHECK(g.squaredNorm() / n == Approx(1).margin(0.04));
  CHECK(data.X.cast<double>().array().square().mean() == Approx(1).margin(0.01));  // x ~ N(0, I)
  for (Index i = 0; i < n; ++i) REQUIRE(data.y(i) == (data.T(i, 0) > 0 ? 1 : 0));

  // residualize = "train": y = g* − ρ − β·x with the training sample's own ρ, β; the test split keeps g*.
  auto res = data_pack().make<Distribution>("multi-index-gaussian", {{"dim", std::int64_t(d)}, {"r", std::int64_t(r)}}, {});
  const Index m = 2000;
  const Dataset train = draw(*res, m, 3);
  const Eigen::MatrixXd X = train.X.cast<double>();
  const VecD& gs = train.meta.at("g_star");
  const double rho = gs.mean();
  const VecD beta = X.transpose() * gs / static_cast<double>(m);
  const VecD expect = (gs.array() - rho).matrix() - X * beta;
  CHECK((expect - train.T.col(0).cast<double>()).cwiseAbs().maxCoeff() < 1e-4);
  const VecD t = train.T.col(0).cast<double>();
  CHECK(std::abs(t.mean()) < 2e-3);                                             // mean y ≈ 0
  CHECK((X.transpose() * t / static_cast<double>(m)).cwiseAbs().maxCoeff() < 0.02);  // mean y·x ≈ 0
  CHECK((X.transpose() * gs / static_cast<double>(m)).cwiseAbs().maxCoeff() > 0.04);  // it was not before
  const Dataset test = draw(*res, m, 3, Split::Test);
  CHECK((test.T.col(0).cast<double>() - test.meta.at("g_star")).cwiseAbs().maxCoeff() < 1e-6);
  auto all = data_pack().make<Distribution>(
      "multi-index-gaussian", {{"dim", std::int64_t(d)}, {"r", std::int64_t(r)}, {"residualize", std::string("all")}}, {});
  const Dataset test_all = draw(*all, m, 3, Split::Test);
  CHECK((test_all.T.col(0).cast<double>() - expect).cwiseAbs().maxCoeff() < 1e-4);  // same X, same residual
  CHECK_THROWS_WITH(data_pack().make<Distribution>("multi-index-gaussian", {{"dim", std::int64_t(1)}}, {}),
                    Catch::Contains("exceeds dim"));
}

TEST_CASE("gaussian-mixture preset xor4: centre geometry, E[yx] = 0, cluster proportions (Assumption B.36)",
          "[chapter3-data]") {
  const Index d = 16, n = 40000;
  auto dist = data_std().make<Distribution>(
      "gaussian-mixture", {{"preset", std::string("xor4")}, {"dim", std::int64_t(d)}, {"sigma", 1.0}}, {});
  const FeatureSet f = dist->features();
  const Mat& mu = f.at("centres");
  REQUIRE(mu.rows() == 4);
  CHECK(mu.row(1) == -mu.row(0));  // μ_2 = −μ_1
  CHECK(mu.row(3) == -mu.row(2));  // μ_4 = −μ_3
  CHECK(mu.row(0).dot(mu.row(2)) == 0);  // ⟨μ_1, μ_3⟩ = 0
  for (Index j = 0; j < 4; ++j) CHECK(mu.row(j).squaredNorm() == Approx(double(d)).epsilon(1e-6));  // ‖μ_j‖ = √d
  CHECK(f.at("cluster_labels") == (Mat(1, 4) << 1, 1, -1, -1).finished());
  CHECK((f.at("directions").rowwise().norm().array() - 1).abs().maxCoeff() < Scalar(1e-6));
  CHECK(dist->spec().classes == 2);
  const Dataset data = draw(*dist, n);
  const VecD& cluster = data.meta.at("cluster");
  double noise = 0;
  for (Index j = 0; j < 4; ++j) CHECK(fraction(cluster, double(j)) == Approx(0.25).margin(0.008));
  for (Index i = 0; i < n; ++i) {
    const auto c = static_cast<Index>(cluster(i));
    REQUIRE(data.y(i) == (c < 2 ? 1 : 0));
    noise += static_cast<double>((data.X.row(i) - mu.row(c)).squaredNorm());
  }
  CHECK(noise / (n * d) == Approx(1.0).margin(0.02));  // σ_B = 1 per coordinate
  CHECK(mean_yx(data).cwiseAbs().maxCoeff() < 0.1);    // XOR: no linear signal (‖μ‖ = 4)
  // Random orthonormal pair: the same geometry up to rounding.
  auto random = data_std().make<Distribution>(
      "gaussian-mixture", {{"preset", std::string("xor4")}, {"dim", std::int64_t(d)}, {"means", std::string("random")}}, {});
  const Mat rm = random->features().at("centres");
  CHECK(std::abs(rm.row(0).dot(rm.row(2))) < 1e-4);
  CHECK((rm.row(1) + rm.row(0)).cwiseAbs().maxCoeff() == 0);
  CHECK(rm.row(2).squaredNorm() == Approx(double(d)).epsilon(1e-5));
  const auto make = [](const Overrides& o) { return data_std().make<Distribution>("gaussian-mixture", o, {}); };
  CHECK_THROWS_WITH(make({{"preset", std::string("xor4")}, {"classes", std::int64_t(3)}}), Catch::Contains("classes = 2"));
  CHECK_THROWS_WITH(make({{"preset", std::string("xor4")}, {"weights", std::vector<double>{1, 1, 1, 2}}}),
                    Catch::Contains("fixes weights"));
  CHECK_THROWS_WITH(make({{"preset", std::string("xor4")}, {"mean_norm", 2.0}}), Catch::Contains("fixes mean_norm"));
}
