// softplus over a block, a fixed group of entries at a time: every entry goes through the same vectorised exp
// and log1p (Eigen's scalar and packet paths round differently, and which one an entry would take depends on
// where it lies in the block), so a block of rows gets exactly the values the whole matrix does.
#include "softplus_activation.hpp"

#include <algorithm>

namespace featurelab::std_pack {

namespace {

// 16 entries: whole packets at every SIMD width (4, 8 or 16 floats; 2, 4 or 8 doubles).
constexpr Index kGroup = 16;
using Group = Eigen::Array<Scalar, kGroup, 1>;

// e = e^−|u| ∈ (0, 1]: softplus(u) = max(u, 0) + log1p(e); σ(|u|) = 1/(1 + e), and σ(u) = 1 − σ(|u|) = e·σ(|u|)
// for u < 0.
void softplus(const Group& u, Group& value, Group& slope) {
  const Group e = (-u.abs()).exp();
  value = u.max(Scalar(0)) + e.log1p();
  const Group s = (e + Scalar(1)).inverse();
  slope = (u >= Scalar(0)).select(s, e * s);
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
      softplus(u, value, slope);
      if constexpr (kValue) H.row(r).segment(c, m) = value.head(m).transpose().matrix();
      if constexpr (kSlope) D.row(r).segment(c, m) = slope.head(m).transpose().matrix();
    }
  }
}

}  // namespace

SoftplusActivation::SoftplusActivation(const Params&, Context&) {}

void SoftplusActivation::apply(ConstMatRef Z, MatRef H, MatRef D) const { by_groups<true, true>(Z, H, D); }

void SoftplusActivation::value(ConstMatRef Z, MatRef H) const { by_groups<true, false>(Z, H, H); }

void SoftplusActivation::derivative(ConstMatRef Z, MatRef D) const { by_groups<false, true>(Z, D, D); }

}  // namespace featurelab::std_pack
