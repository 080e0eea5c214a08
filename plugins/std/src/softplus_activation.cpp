// softplus over a block, a fixed group of entries at a time: every entry goes through the same vectorised exp
// and log1p (Eigen's scalar and packet paths round differently, and which one an entry would take depends on
// where it lies in the block), so a block of rows gets exactly the values the whole matrix does.
#include "softplus_activation.hpp"

#include "activation_groups.hpp"

#include <algorithm>

namespace featurelab::std_pack {

namespace {

using activation_groups::Group;

// e = e^−|u| ∈ (0, 1]: softplus(u) = max(u, 0) + log1p(e); σ(|u|) = 1/(1 + e), and σ(u) = 1 − σ(|u|) = e·σ(|u|)
// for u < 0.
void softplus_group(const Group& u, Group& value, Group& slope) {
  const Group e = (-u.abs()).exp();
  value = u.max(Scalar(0)) + e.log1p();
  const Group s = (e + Scalar(1)).inverse();
  slope = (u >= Scalar(0)).select(s, e * s);
}

}  // namespace

SoftplusActivation::SoftplusActivation(const Params&, Context&) {}

void SoftplusActivation::apply(ConstMatRef Z, MatRef H, MatRef D) const { activation_groups::apply<true, true>(Z, H, D, softplus_group); }

void SoftplusActivation::value(ConstMatRef Z, MatRef H) const { activation_groups::apply<true, false>(Z, H, H, softplus_group); }

void SoftplusActivation::derivative(ConstMatRef Z, MatRef D) const { activation_groups::apply<false, true>(Z, D, D, softplus_group); }

}  // namespace featurelab::std_pack
