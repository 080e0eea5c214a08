// info-nce on a linear representation f(x) = Wx + b: the stop-gradient update is the derivative of the loss with
// the positives' and negatives' representations frozen, and it is not the loss's gradient (which the full mode
// is, dot or cosine similarity); batches not in the view layout refused with the fix.
#include "std_harness.hpp"

#include <featurelab/gradient_check.hpp>
#include <featurelab/views.hpp>

#include <catch2/catch.hpp>

#include <cmath>

using namespace featurelab;
using std_test::harness;

namespace {

// A contrastive batch (K anchors, K positives, N negatives) of random views in dimension D.
Dataset contrastive_batch(Index K, Index N, Index D, Rng& rng) {
  Dataset d;
  d.resize(2 * K + N, D, 1);
  d.classes = 2;
  rng.fill_normal(d.X);
  for (Index i = 0; i < d.size(); ++i) d.T(i, 0) = i < K ? kViewAnchor : i < 2 * K ? kViewPositive : kViewNegative;
  return d;
}

// The loss with the positives' and negatives' representations frozen at Fo, as a function of the model's
// current weights through the anchors only (double, for finite differences).
double frozen_loss(Model& model, const Dataset& d, Index K, const MatD& Fo, double tau) {
  Mat fa(K, model.outputs());
  model.forward(d.X.topRows(K), fa);
  const MatD A = fa.cast<double>();
  const Index N = Fo.rows() - K;
  double total = 0;
  for (Index k = 0; k < K; ++k) {
    const double pos = A.row(k).dot(Fo.row(k));
    VecD s(N + 1);
    s(0) = pos / tau;
    s.tail(N) = Fo.bottomRows(N) * A.row(k).transpose() / tau;
    const double mx = s.maxCoeff();
    total += -pos + tau * (mx + std::log((s.array() - mx).exp().sum()));
  }
  return total / static_cast<double>(K);
}

}  // namespace

TEST_CASE("info-nce: the stop-gradient update is the anchor-branch derivative with the target branch frozen, not the gradient") {
  const Index K = 4, N = 5, D = 8;
  DataSpec spec;
  spec.dim = D;
  spec.classes = 2;
  Rng rng(9);
  const Dataset d = contrastive_batch(K, N, D, rng);
  auto model = harness().make<Model>("linear", {{"outputs", std::int64_t(3)}, {"init_scale", 0.3}}, spec);
  model->init(rng);
  const double tau = 0.7;
  auto semi = harness().make<Loss>("info-nce", {{"temperature", tau}}, spec);
  auto full = harness().make<Loss>("info-nce", {{"temperature", tau}, {"gradient", std::string("full")}}, spec);
  const Index P = model->trainable_size();
  Vec g_semi(P), g_full(P);
  const double value = semi->evaluate_with_gradient(*model, Batch::of(d), g_semi);
  full->evaluate_with_gradient(*model, Batch::of(d), g_full);
  Mat fo(K + N, 3);
  model->forward(d.X.bottomRows(K + N), fo);
  const MatD Fo = fo.cast<double>();
  CHECK(frozen_loss(*model, d, K, Fo, tau) == Approx(value).epsilon(kDouble ? 1e-12 : 1e-5));
  // Central differences of the frozen-target loss in every coordinate of W and b.
  const double h = kDouble ? 1e-6 : 1e-3;
  double worst = 0;
  for (Index i = 0; i < P; ++i) {
    const Scalar keep = model->parameters()(i);
    model->parameters()(i) = static_cast<Scalar>(keep + h);
    const double up = frozen_loss(*model, d, K, Fo, tau);
    model->parameters()(i) = static_cast<Scalar>(keep - h);
    const double down = frozen_loss(*model, d, K, Fo, tau);
    model->parameters()(i) = keep;
    worst = std::max(worst, std::abs((up - down) / (2 * h) - static_cast<double>(g_semi(i))));
  }
  CHECK(worst < (kDouble ? 1e-4 * (1 + g_semi.cwiseAbs().maxCoeff()) : 2e-2));
  // It is not the gradient of the loss: the full gradient differs, and it is the one finite differences confirm.
  CHECK((g_semi - g_full).norm() > 0.1 * g_full.norm());
  CHECK(check_gradient(*model, *full, Batch::of(d)).ok);
  auto cosine = harness().make<Loss>(
      "info-nce", {{"similarity", std::string("cosine")}, {"gradient", std::string("full")}, {"temperature", 0.5}},
      spec);
  CHECK(check_gradient(*model, *cosine, Batch::of(d)).ok);
}

TEST_CASE("info-nce: zero representations give τ·ln(N + 1), and batches not in the view layout refused with the fix") {
  const Index K = 3, N = 4, D = 5;
  DataSpec spec;
  spec.dim = D;
  spec.classes = 2;
  Rng rng(3);
  Dataset d = contrastive_batch(K, N, D, rng);
  auto model = harness().make<Model>("linear", {{"outputs", std::int64_t(2)}}, spec);
  model->init(rng);  // W = 0, b = 0: every similarity is 0
  auto loss = harness().make<Loss>("info-nce", {{"temperature", 0.5}}, spec);
  CHECK(static_cast<double>(loss->evaluate(*model, Batch::of(d))) == Approx(0.5 * std::log(N + 1.0)).margin(1e-6));
  Dataset raw = d;
  raw.T.resize(0, 0);
  CHECK_THROWS_WITH(loss->evaluate(*model, Batch::of(raw)),
                    Catch::Contains("info-nce") && Catch::Contains("random-mask") && Catch::Contains("[[augment]]"));
  d.T(2 * K, 0) = kViewPositive;  // a negative marked as a positive
  CHECK_THROWS_WITH(loss->evaluate(*model, Batch::of(d)), Catch::Contains("not K anchors"));
  Dataset no_negatives = contrastive_batch(K, 0, D, rng);
  CHECK_THROWS_WITH(loss->evaluate(*model, Batch::of(no_negatives)), Catch::Contains("N >= 1"));
}
