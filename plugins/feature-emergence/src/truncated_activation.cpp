// Elementwise; the smoothed form evaluates two normal CDFs and densities per entry.
#include "truncated_activation.hpp"

#include <cmath>

namespace feature_emergence {

using namespace featurelab;

namespace {
constexpr double kInvSqrt2 = 0.70710678118654752440;
constexpr double kInvSqrt2Pi = 0.39894228040143267794;
inline double cdf(double u) { return 0.5 * std::erfc(-u * kInvSqrt2); }
inline double pdf(double u) { return kInvSqrt2Pi * std::exp(-0.5 * u * u); }
inline double smooth_relu(double z, double s) { return z * cdf(z / s) + s * pdf(z / s); }
}  // namespace

void truncated_relu(ConstMatRef Z, double s, MatRef H, MatRef dH) {
  if (s <= 0) {
    H = Z.cwiseMax(Scalar(0)).cwiseMin(Scalar(1));
    dH = ((Z.array() > Scalar(0)) && (Z.array() < Scalar(1))).cast<Scalar>();
    return;
  }
  for (Index r = 0; r < Z.rows(); ++r) {
    for (Index c = 0; c < Z.cols(); ++c) {
      const double z = Z(r, c);
      H(r, c) = static_cast<Scalar>(smooth_relu(z, s) - smooth_relu(z - 1, s));
      dH(r, c) = static_cast<Scalar>(cdf(z / s) - cdf((z - 1) / s));
    }
  }
}

}  // namespace feature_emergence
