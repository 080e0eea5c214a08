// patch-two-layer: the formula of Eq. 4.1 against a per-sample loop, gradients against finite
// differences, with the smoothed and the plain ReLU.
#include "mm_harness.hpp"

#include <featurelab/gradient_check.hpp>

#include <catch2/catch.hpp>

#include <cmath>

using namespace featurelab;
using mm_test::pack;
using mm_test::std_pack;

namespace {
DataSpec patch_spec(Index P, Index d, int k) {
  DataSpec s;
  s.dim = P * d;
  s.classes = k;
  s.shape.dims = {P, d};
  return s;
}

double smoothed(double u, double alpha, double rho) {
  if (u <= 0) return 0;
  if (u <= rho) return std::pow(u, alpha) / (alpha * std::pow(rho, alpha - 1));
  return u - (1 - 1 / alpha) * rho;
}
}  // namespace

TEST_CASE("patch-two-layer computes g^y(x) = sum_r sum_p ReLU~(<w_yr, x_p>)") {
  const Index P = 3, d = 4, m = 2;
  const int k = 3;
  auto model = pack().make<Model>("patch-two-layer", {{"neurons", std::int64_t(m)}, {"alpha", 3.0}, {"rho", 0.5}},
                                  patch_spec(P, d, k));
  Rng rng(1);
  model->init(rng);
  Mat X(5, P * d);
  rng.fill_normal(X);
  Mat out(5, k);
  model->forward(X, out);
  const auto W = std::as_const(*model).block("W");
  for (Index i = 0; i < 5; ++i) {
    for (Index y = 0; y < k; ++y) {
      double g = 0;
      for (Index r = 0; r < m; ++r) {
        for (Index p = 0; p < P; ++p) g += smoothed(W.row(y * m + r).dot(X.row(i).segment(p * d, d)), 3.0, 0.5);
      }
      CHECK(out(i, y) == Approx(g).epsilon(1e-4).margin(1e-6));
    }
  }
}

TEST_CASE("patch-two-layer gradients with cross-entropy, hard and soft targets") {
  for (const std::string act : {"smoothed-relu", "relu"}) {
    for (bool soft : {false, true}) {
      const DataSpec s = patch_spec(4, 6, 3);
      auto model = pack().make<Model>("patch-two-layer", {{"neurons", std::int64_t(2)}, {"activation", act}, {"alpha", 3.0},
                                                          {"rho", 0.3}, {"init_std", 0.5}}, s);
      auto loss = std_pack().make<Loss>("cross-entropy", {}, s);
      Rng rng(7);
      model->init(rng);
      Dataset data;
      data.X.resize(5, 24);
      rng.fill_normal(data.X);
      data.y.resize(5);
      data.y << 0, 1, 2, 1, 0;
      data.classes = 3;
      if (soft) {
        data.T = Mat::Constant(5, 3, Scalar(1) / 3);
      }
      GradientCheckOptions o;
      if (act == "relu") o.step = std::is_same_v<Scalar, float> ? 2e-3 : 1e-6;
      const auto r = check_gradient(*model, *loss, Batch::of(data), o);
      INFO(act << (soft ? " soft" : " hard") << "\n" << r.report);
      CHECK(r.ok);
      if (act == "relu") continue;  // 120 pre-activations: a finite step crosses some kink; same code path
      const auto in = check_input_gradient(*model, Batch::of(data), o);
      INFO(in.report);
      CHECK(in.ok);
    }
  }
}

TEST_CASE("patch-two-layer refuses data without patches") {
  const DataSpec flat = testing::spec(10, 3);
  CHECK_THROWS_WITH(pack().make<Model>("patch-two-layer", {}, flat), Catch::Contains("needs patch data"));
}
