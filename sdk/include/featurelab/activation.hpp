// Elementwise activations shared by the packs' networks, with their derivatives in the same pass.
//
//   relu           max(0, u), φ'(0) := 0 (Frei et al. 2022's convention)
//   leaky-relu     u for u > 0, slope·u otherwise
//   smoothed-relu  the polynomially smoothed ReLU of Chidambaram et al. (Def. 4.2, after
//                  Allen-Zhu & Li): 0 for u ≤ 0; u^α/(α ρ^{α−1}) on [0, ρ]; u − (1 − 1/α)ρ
//                  above ρ. C¹ at ρ (value ρ/α, slope 1).
//   poly           u^p
//   identity       u
#pragma once

#include <featurelab/params.hpp>
#include <featurelab/types.hpp>

#include <string>
#include <vector>

namespace featurelab {

class Activation {
 public:
  static const std::vector<std::string>& names();
  // Adds activation, leaky_slope, smooth_alpha, smooth_rho, power to a schema.
  static void declare(Schema& schema);
  explicit Activation(const Params& params);

  // H = φ(Z) and D = φ'(Z), elementwise (H and D presized like Z; blocks of rows are fine).
  void apply(ConstMatRef Z, MatRef H, MatRef D) const;
  // Only H = φ(Z), or only D = φ'(Z): one pass less where the other is not needed (a forward pass
  // needs no derivative; a backward pass through a fixed second layer needs no values).
  void value(ConstMatRef Z, MatRef H) const;
  void derivative(ConstMatRef Z, MatRef D) const;
  // Scalar versions, for tests and probes.
  double value(double u) const;
  double derivative(double u) const;

 private:
  enum class Kind { Relu, LeakyRelu, SmoothedRelu, Poly, Identity } kind_;
  Scalar slope_;
  Scalar alpha_;
  Scalar rho_;
  int power_;
  mutable Mat square_;  // smoothed-relu's repeated squaring: reused, no allocation while the shape is stable
  mutable Mat other_;   // the half value()/derivative() drop, for the activations computed jointly
};

}  // namespace featurelab
