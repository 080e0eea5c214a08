// An elementwise activation over a block, a fixed group of entries at a time (gelu, softplus): every entry goes
// through the same vectorised erf or exp (Eigen's scalar and packet paths round differently, and which one an
// entry would take depends on where it lies in the block), so a block of rows gets exactly the values the whole
// matrix does.
#pragma once

#include <featurelab/types.hpp>

#include <algorithm>

namespace featurelab::std_pack::activation_groups {

// 16 entries: whole packets at every SIMD width (4, 8 or 16 floats; 2, 4 or 8 doubles).
constexpr Index kGroup = 16;
using Group = Eigen::Array<Scalar, kGroup, 1>;

// kernel(u, value, slope) over each row in groups of kGroup columns, the last group of a row padded with zeros;
// stores the values (kValue) and/or the slopes (kSlope).
template <bool kValue, bool kSlope, class Kernel>
void apply(ConstMatRef Z, MatRef H, MatRef D, Kernel kernel) {
  Group u, value, slope;
  for (Index r = 0; r < Z.rows(); ++r) {
    for (Index c = 0; c < Z.cols(); c += kGroup) {
      const Index m = std::min(kGroup, Z.cols() - c);
      if (m < kGroup) u.setZero();  // the padding (whole: a partial store here trips GCC's -Warray-bounds)
      u.head(m) = Z.row(r).segment(c, m).transpose().array();
      kernel(u, value, slope);
      if constexpr (kValue) H.row(r).segment(c, m) = value.head(m).transpose().matrix();
      if constexpr (kSlope) D.row(r).segment(c, m) = slope.head(m).transpose().matrix();
    }
  }
}

}  // namespace featurelab::std_pack::activation_groups
