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

  // H = φ(Z) and D = φ'(Z), elementwise (H and D presized like Z).
  void apply(const Mat& Z, Mat& H, Mat& D) const;
  // Scalar versions, for tests and probes.
  double value(double u) const;
  double derivative(double u) const;

 private:
  enum class Kind { Relu, LeakyRelu, SmoothedRelu, Poly, Identity } kind_;
  Scalar slope_;
  Scalar alpha_;
  Scalar rho_;
  int power_;
};

}  // namespace featurelab
