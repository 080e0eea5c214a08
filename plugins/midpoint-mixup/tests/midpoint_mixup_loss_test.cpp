// The exact J_MM in activation space equals the naive computation over all N² explicit midpoints
// (value and gradient), for the patch CNN and for the linear model of Section 3.
#include "mm_harness.hpp"

#include <featurelab/gradient_check.hpp>

#include <catch2/catch.hpp>

using namespace featurelab;
using mm_test::pack;
using mm_test::std_pack;

namespace {

// All N² ordered midpoints with soft targets (e_{y_i} + e_{y_j})/2: the definition, literally.
Dataset all_midpoints(const Dataset& d) {
  const Index n = d.size();
  Dataset out;
  out.resize(n * n, d.dim(), d.classes);
  out.classes = d.classes;
  out.T.setZero();
  for (Index i = 0; i < n; ++i) {
    for (Index j = 0; j < n; ++j) {
      const Index r = i * n + j;
      out.X.row(r) = Scalar(0.5) * (d.X.row(i) + d.X.row(j));
      out.y(r) = d.y(i);
      out.T(r, d.y(i)) += Scalar(0.5);
      out.T(r, d.y(j)) += Scalar(0.5);
    }
  }
  return out;
}

void compare_with_naive(Model& model, const Dataset& data) {
  auto exact = pack().make<Loss>("midpoint-mixup-exact", {}, {});
  auto ce = std_pack().make<Loss>("cross-entropy", {}, {});
  const Dataset pairs = all_midpoints(data);
  Vec g_exact(model.trainable_size()), g_naive(model.trainable_size());
  const Scalar v_exact = exact->evaluate_with_gradient(model, Batch::of(data), g_exact);
  const Scalar v_naive = ce->evaluate_with_gradient(model, Batch::of(pairs), g_naive);
  CHECK(v_exact == Approx(v_naive).epsilon(1e-4));
  CHECK(exact->evaluate(model, Batch::of(data)) == Approx(v_naive).epsilon(1e-4));
  INFO("exact " << g_exact.head(6).transpose() << "\nnaive " << g_naive.head(6).transpose());
  CHECK((g_exact - g_naive).norm() <= 1e-4 * std::max(Scalar(1), g_naive.norm()));
  const auto r = check_gradient(model, *exact, Batch::of(data));
  INFO(r.report);
  CHECK(r.ok);
}

}  // namespace

TEST_CASE("exact midpoint mixup equals the N^2-midpoint cross-entropy: patch CNN") {
  DataSpec s;
  s.dim = 4 * 6;
  s.classes = 3;
  s.shape.dims = {4, 6};
  auto model = pack().make<Model>("patch-two-layer", {{"neurons", std::int64_t(2)}, {"alpha", 3.0}, {"rho", 0.3},
                                                      {"init_std", 0.5}}, s);
  Rng rng(11);
  model->init(rng);
  Dataset data;
  data.X.resize(7, 24);
  rng.fill_normal(data.X);
  data.y.resize(7);
  data.y << 0, 1, 2, 2, 1, 0, 1;
  data.classes = 3;
  compare_with_naive(*model, data);
}

TEST_CASE("exact midpoint mixup equals the N^2-midpoint cross-entropy: linear model (Section 3)") {
  DataSpec s;
  s.dim = 8;
  s.classes = 4;
  auto model = std_pack().make<Model>("linear", {{"bias", false}, {"init_scale", 0.3}}, s);
  Rng rng(12);
  model->init(rng);
  Dataset data;
  data.X.resize(9, 8);
  rng.fill_normal(data.X);
  data.y.resize(9);
  data.y << 0, 1, 2, 3, 3, 2, 1, 0, 0;
  data.classes = 4;
  compare_with_naive(*model, data);
}

TEST_CASE("exact midpoint mixup refuses models without affine pre-activations") {
  DataSpec s;
  s.dim = 3;
  s.classes = 3;
  auto model = std_pack().make<Model>("two-layer", {{"second_layer", std::string("per-class")}, {"width", std::int64_t(6)}}, s);
  auto exact = pack().make<Loss>("midpoint-mixup-exact", {}, {});
  CHECK_THROWS_WITH(exact->check_model(*model, s), Catch::Contains("affine in x"));
}

TEST_CASE("Lemma 3.2: at w_y = c(v_{y,1} + v_{y,2}) J_MM has a closed form that falls to its infimum") {
  // Same-class midpoints score c on their class, cross-class ones c/2 on both classes, so
  //   J_MM = Σ_{i,j} [same ? log(1 + (k−1)e^{−c}) : log(2 + (k−2)e^{−c/2})] / N²,
  // whose limit is log 2 · (1 − Σ_y π_y²) = inf J_MM (extraction A1, A3).
  const int k = 10;
  auto dist = pack().make<Distribution>("simple-multiview", {{"classes", std::int64_t(k)}}, {});
  Dataset data;
  Rng rng(3);
  dist->sample(200, Split::Train, rng, data);
  const Mat views = dist->features().at("views");
  DataSpec s;
  s.dim = views.cols();
  s.classes = k;
  auto model = std_pack().make<Model>("linear", {{"bias", false}}, s);
  auto exact = pack().make<Loss>("midpoint-mixup-exact", {}, {});
  VecD counts = VecD::Zero(k);
  for (Index i = 0; i < data.size(); ++i) counts(data.y(i)) += 1;
  const double n = static_cast<double>(data.size());
  const double same = counts.squaredNorm() / (n * n);
  for (double c : {1.0, 10.0, 50.0}) {
    MatMap W = model->block("W");
    for (Index y = 0; y < k; ++y) W.row(y) = static_cast<Scalar>(c) * (views.row(2 * y) + views.row(2 * y + 1));
    const double expected = same * std::log1p((k - 1) * std::exp(-c)) + (1 - same) * std::log(2 + (k - 2) * std::exp(-c / 2));
    CHECK(exact->evaluate(*model, Batch::of(data)) == Approx(expected).epsilon(1e-4));
  }
  // c = 10: the cross-class pair loss of the extraction's L1 table.
  CHECK(std::log(2 + 8 * std::exp(-5.0)) == Approx(0.71974).epsilon(1e-5));
  CHECK(exact->evaluate(*model, Batch::of(data)) == Approx(std::log(2.0) * (1 - same)).epsilon(1e-4));
}
