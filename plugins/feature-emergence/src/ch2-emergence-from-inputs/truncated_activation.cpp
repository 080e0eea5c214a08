// Elementwise; the smoothed form evaluates two normal CDFs and densities per entry.
#include "truncated_activation.hpp"

#include <cmath>

namespace featurelab::feature_emergence_pack {

namespace {
constexpr double kInvSqrt2 = 0.70710678118654752440;
constexpr double kInvSqrt2Pi = 0.39894228040143267794;
inline double cdf(double u) { return 0.5 * std::erfc(-u * kInvSqrt2); }
inline double pdf(double u) { return kInvSqrt2Pi * std::exp(-0.5 * u * u); }
}  // namespace

void truncated_relu(ConstMatRef Z, double s, MatRef H, MatRef dH) {
  if (s <= 0) {
    H = Z.cwiseMax(Scalar(0)).cwiseMin(Scalar(1));
    dH = ((Z.array() > Scalar(0)) && (Z.array() < Scalar(1))).cast<Scalar>();
    return;
  }
  // Each of Φ and φ once at z/s and at (z − 1)/s: two erfc and two exp an entry, which dominate the
  // step (libm's calls are not merged by the compiler: they may set errno).
  for (Index r = 0; r < Z.rows(); ++r) {
    for (Index c = 0; c < Z.cols(); ++c) {
      const double z = Z(r, c);
      const double u0 = z / s, u1 = (z - 1) / s;
      const double cdf0 = cdf(u0), cdf1 = cdf(u1);
      H(r, c) = static_cast<Scalar>((z * cdf0 + s * pdf(u0)) - ((z - 1) * cdf1 + s * pdf(u1)));
      dH(r, c) = static_cast<Scalar>(cdf0 - cdf1);
    }
  }
}

}  // namespace featurelab::feature_emergence_pack

namespace featurelab::feature_emergence_pack {

void declare_network_schema(Schema& s) {
  s.integer("width", 600, "hidden units 2m (the paper's m is half of it); even").min(2);
  s.real("init_w", 0.2, "σ_w (the chapter: 1/k)").min(0);
  s.real("init_b", 0.04, "σ_b (1/k²)").min(0);
  s.real("init_a", 4.0, "σ_a (σ̃²/(γk²))").min(0);
  s.real("smoothing", 0.0, "s: std of the Gaussian noise smoothing the activation").min(0);
}

void symmetric_init(Rng& rng, double sigma_w, double sigma_b, double sigma_a, MatRef W, MatRef b, MatRef a) {
  const Index m = W.rows() / 2;
  rng.fill_normal(W.topRows(m), sigma_w);
  W.bottomRows(m) = W.topRows(m);
  rng.fill_normal(b.leftCols(m), sigma_b);
  b.rightCols(m) = b.leftCols(m);
  rng.fill_normal(a.leftCols(m), sigma_a);
  a.rightCols(m) = -a.leftCols(m);
}

}  // namespace featurelab::feature_emergence_pack
