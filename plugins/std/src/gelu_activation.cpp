// GELU over a block, a fixed group of entries at a time: every entry goes through the same vectorised erf and exp
// (Eigen's scalar and packet paths round differently, and which one an entry would take depends on where it lies
// in the block), so a block of rows gets exactly the values the whole matrix does.
#include "gelu_activation.hpp"

#include <unsupported/Eigen/SpecialFunctions>

#include <algorithm>
#include <cmath>

namespace featurelab::std_pack {

namespace {

// 16 entries: whole packets at every SIMD width (4, 8 or 16 floats; 2, 4 or 8 doubles).
constexpr Index kGroup = 16;
using Group = Eigen::Array<Scalar, kGroup, 1>;

// Φ(u) = (1 + erf(u/√2))/2, as the transformer writes it; GELU = u·Φ(u), GELU' = Φ(u) + u·ϕ(u).
void gelu(const Group& u, Group& value, Group& slope) {
  const Group cdf = ((u * static_cast<Scalar>(M_SQRT1_2)).erf() + Scalar(1)) * Scalar(0.5);
  value = u * cdf;
  slope = cdf + u * (u.square() * Scalar(-0.5)).exp() * static_cast<Scalar>(0.5 * M_2_SQRTPI * M_SQRT1_2);
}

// The kernel over each row in groups of kGroup columns, the last group of a row padded with zeros; stores the
// values (kValue) and/or the slopes (kSlope).
template <bool kValue, bool kSlope>
void by_groups(ConstMatRef Z, MatRef H, MatRef D) {
  Group u, value, slope;
  for (Index r = 0; r < Z.rows(); ++r) {
    for (Index c = 0; c < Z.cols(); c += kGroup) {
      const Index m = std::min(kGroup, Z.cols() - c);
      if (m < kGroup) u.setZero();  // the padding (whole: a partial store here trips GCC's -Warray-bounds)
      u.head(m) = Z.row(r).segment(c, m).transpose().array();
      gelu(u, value, slope);
      if constexpr (kValue) H.row(r).segment(c, m) = value.head(m).transpose().matrix();
      if constexpr (kSlope) D.row(r).segment(c, m) = slope.head(m).transpose().matrix();
    }
  }
}

}  // namespace

GeluActivation::GeluActivation(const Params&, Context&) {}

void GeluActivation::apply(ConstMatRef Z, MatRef H, MatRef D) const { by_groups<true, true>(Z, H, D); }

void GeluActivation::value(ConstMatRef Z, MatRef H) const { by_groups<true, false>(Z, H, H); }

void GeluActivation::derivative(ConstMatRef Z, MatRef D) const { by_groups<false, true>(Z, D, D); }

}  // namespace featurelab::std_pack
