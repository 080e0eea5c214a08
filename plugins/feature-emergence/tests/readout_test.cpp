// The readout solver on its own: the Two-Step situation in miniature (nearly collinear ReLU features
// with slopes 1/k² that separate a parity only with large readout weights) and a noisy problem
// where the duality gap certifies the optimum.
#include "../src/readout_solver.hpp"

#include <catch2/catch.hpp>

#include <cmath>
#include <cstring>

using namespace featurelab;
using featurelab::feature_emergence_pack::HingeReadout;

TEST_CASE("readout: dual coordinate descent separates a parity of counts on collinear kinked features") {
  // h_j(s) = relu(c (s − t_j)) with c = 1/25 and kinks t_j spread over [−0.5, 5.5]; y = parity of s.
  Rng rng(3);
  const Index n = 3000, m = 60;
  const double c = 1.0 / 25;
  VecD t(m);
  for (Index j = 0; j < m; ++j) t(j) = -0.5 + 6.0 * (static_cast<double>(j) + rng.uniform()) / static_cast<double>(m);
  Mat H(n, m);
  VecD y(n);
  for (Index i = 0; i < n; ++i) {
    const int s = static_cast<int>(rng.uniform() * 6);
    y(i) = s % 2 == 1 ? 1.0 : -1.0;
    for (Index j = 0; j < m; ++j) H(i, j) = static_cast<Scalar>(std::max(0.0, c * (s - t(j))));
  }
  HingeReadout readout(H, y, 1e-7);
  CHECK(readout.accuracy() <= 0.5 + 0.05);  // a = 0 to start
  for (int e = 0; e < 300; ++e) readout.epoch(rng);
  CHECK(readout.accuracy() == 1.0);
  // The separating readout needs weights beyond 1/c: far from where a few hundred small steps reach.
  CHECK(readout.weights().cwiseAbs().maxCoeff() > 1 / c);
  CHECK(readout.primal() - readout.dual() >= -1e-9);
}

TEST_CASE("readout: on overlapping classes the duality gap closes (the SVM optimum, not a stopping point)") {
  Rng rng(4);
  const Index n = 2000, m = 20;
  Mat H(n, m);
  rng.fill_normal(H, 1.0);
  VecD y(n);
  for (Index i = 0; i < n; ++i) y(i) = (H(i, 0) + H(i, 1) + rng.normal(0, 1.0)) > 0 ? 1.0 : -1.0;
  HingeReadout readout(H, y, 1e-3);
  double previous_dual = readout.dual();
  for (int e = 0; e < 200; ++e) {
    readout.epoch(rng);
    CHECK(readout.dual() >= previous_dual - 1e-12);  // coordinate ascent never lowers the dual
    previous_dual = readout.dual();
  }
  const double gap = readout.primal() - readout.dual();
  CHECK(gap >= -1e-9);
  CHECK(gap < 1e-3 * readout.primal());
  CHECK(readout.accuracy() > 0.75);  // the Bayes rate here is ≈ 0.80
}

TEST_CASE("readout: margins computed several samples ahead give the one-sample loop's bits") {
  // Early epochs change a at most samples (the window stays short), late ones at few (it grows to 8).
  Rng data_rng(5);
  const Index n = 1500, m = 37;  // m not a multiple of any vector width
  Mat H(n, m);
  data_rng.fill_normal(H, 1.0);
  VecD y(n);
  for (Index i = 0; i < n; ++i) y(i) = (H(i, 0) - H(i, 2) + data_rng.normal(0, 0.5)) > 0 ? 1.0 : -1.0;
  H.row(7).setZero();  // a sample no neuron sees is skipped inside a window too
  for (const std::size_t window : {2, 4, 8}) {
    HingeReadout ahead(H, y, 1e-4, window);
    Rng order_plain(6), order_ahead(6);
    HingeReadout reference(H, y, 1e-4, 1);
    for (int e = 0; e < 40; ++e) {
      reference.epoch(order_plain);
      ahead.epoch(order_ahead);
      REQUIRE(std::memcmp(reference.weights().data(), ahead.weights().data(), sizeof(double) * m) == 0);
    }
  }
  CHECK_THROWS_WITH(HingeReadout(H, y, 1e-4, 3), Catch::Contains("1, 2, 4 or 8"));
}
