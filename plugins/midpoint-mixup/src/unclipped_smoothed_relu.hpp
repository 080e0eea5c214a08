// The smoothed ReLU without its zero branch, as the authors' released code computes it (their PolyReLU):
//   φ(u) = u^α/(α ρ^{α−1}) for u < ρ (negative u too: u²/(2ρ) > 0 at α = 2), u − (1 − 1/α)ρ above.
// Def. 4.2 of Chidambaram et al. (and SDK's smoothed-relu) is 0 for u ≤ 0. Integral α only: the
// authors' x**α is NaN for a negative x otherwise.
#pragma once

#include <featurelab/activation.hpp>

namespace featurelab::midpoint_mixup_pack {

struct UnclippedSmoothedRelu {
  Scalar rho, inv_rho, inv_alpha, shift;
  int exponent, exponent_bits;  // α − 1 and its number of bits, for activation_kernel::power_of
  UnclippedSmoothedRelu(int alpha, Scalar rho_)
      : rho(rho_), inv_rho(Scalar(1) / rho_), inv_alpha(Scalar(1) / Scalar(alpha)),
        shift((Scalar(1) - Scalar(1) / Scalar(alpha)) * rho_), exponent(alpha - 1), exponent_bits(0) {
    while (exponent_bits < 31 && (exponent >> exponent_bits) != 0) ++exponent_bits;
  }
  // {φ(u), φ'(u)}: u·(u/ρ)^{α−1}/α and (u/ρ)^{α−1} below ρ.
  activation_kernel::ValueSlope operator()(Scalar u) const {
    const Scalar p = activation_kernel::power_of(u * inv_rho, exponent, exponent_bits);
    const bool linear = u >= rho;
    return {linear ? u - shift : u * p * inv_alpha, linear ? Scalar(1) : p};
  }
};

}  // namespace featurelab::midpoint_mixup_pack
