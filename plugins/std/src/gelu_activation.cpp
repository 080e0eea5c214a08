// GELU over a block, a fixed group of entries at a time: every entry goes through the same vectorised erf and exp
// (Eigen's scalar and packet paths round differently, and which one an entry would take depends on where it lies
// in the block), so a block of rows gets exactly the values the whole matrix does.
#include "gelu_activation.hpp"

#include "activation_groups.hpp"

#include <unsupported/Eigen/SpecialFunctions>

#include <algorithm>
#include <cmath>

namespace featurelab::std_pack {

namespace {

using activation_groups::Group;

// Φ(u) = (1 + erf(u/√2))/2, as the transformer writes it; GELU = u·Φ(u), GELU' = Φ(u) + u·ϕ(u).
void gelu(const Group& u, Group& value, Group& slope) {
  const Group cdf = ((u * static_cast<Scalar>(M_SQRT1_2)).erf() + Scalar(1)) * Scalar(0.5);
  value = u * cdf;
  slope = cdf + u * (u.square() * Scalar(-0.5)).exp() * static_cast<Scalar>(0.5 * M_2_SQRTPI * M_SQRT1_2);
}

}  // namespace

GeluActivation::GeluActivation(const Params&, Context&) {}

void GeluActivation::apply(ConstMatRef Z, MatRef H, MatRef D) const { activation_groups::apply<true, true>(Z, H, D, gelu); }

void GeluActivation::value(ConstMatRef Z, MatRef H) const { activation_groups::apply<true, false>(Z, H, H, gelu); }

void GeluActivation::derivative(ConstMatRef Z, MatRef D) const { activation_groups::apply<false, true>(Z, D, D, gelu); }

}  // namespace featurelab::std_pack
