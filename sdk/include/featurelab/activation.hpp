// Elementwise activations shared by the packs' networks, with their derivatives in the same pass.
//
//   relu           max(0, u), φ'(0) := 0 (Frei et al. 2022's convention)
//   leaky-relu     u for u > 0, slope·u otherwise
//   smoothed-relu  the polynomially smoothed ReLU of Chidambaram et al. (Def. 4.2, after
//                  Allen-Zhu & Li): 0 for u ≤ 0; u^α/(α ρ^{α−1}) on [0, ρ]; u − (1 − 1/α)ρ
//                  above ρ. C¹ at ρ (value ρ/α, slope 1).
//   poly           u^p
//   identity       u
//
// A pack adds its own (tanh, softplus, …) as a component of kind "activation": a class deriving
// from ActivationFunction that computes φ and φ' over a whole block of pre-activations (so a
// model's hot loop makes one call per block, and the pack vectorises it as it likes), registered
// with pack.add<T>("name"). A model that declares the `activation` parameter then takes any such
// name (`featurelab list activation`); the core builds it from its defaults.
#pragma once

#include <featurelab/component.hpp>
#include <featurelab/params.hpp>
#include <featurelab/types.hpp>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace featurelab {

// The elementwise kernels themselves: kernel(u) -> {φ(u), φ'(u)}, inline and branch-free so a
// model's own loop that calls one (Activation::visit) vectorises and needs no second pass.
namespace activation_kernel {

struct ValueSlope {
  Scalar value, slope;
};

struct Relu {
  ValueSlope operator()(Scalar u) const { return {u > Scalar(0) ? u : Scalar(0), u > Scalar(0) ? Scalar(1) : Scalar(0)}; }
};

struct LeakyRelu {
  Scalar negative_slope;
  ValueSlope operator()(Scalar u) const {
    return {u > Scalar(0) ? u : negative_slope * u, u > Scalar(0) ? Scalar(1) : negative_slope};
  }
};

// r^N for a compile-time N by repeated squaring: a handful of multiplies, unrolled.
template <int N>
inline Scalar power_of(Scalar r) {
  if constexpr (N == 0) {
    return Scalar(1);
  } else if constexpr (N % 2 == 0) {
    const Scalar half = power_of<N / 2>(r);
    return half * half;
  } else {
    return r * power_of<N - 1>(r);
  }
}

// r^n for a run-time n ≥ 1 below 2^top: the products power_of<n> makes, in its order (n's bits from the
// top: square, then times r for a 1; the leading 1·1 and r·1 are exact), so the same bits, in a loop.
inline Scalar power_of(Scalar r, int n, int top) {
  Scalar p(1);
  for (int bit = top - 1; bit >= 0; --bit) {
    p = p * p;
    if ((n >> bit) & 1) p = r * p;
  }
  return p;
}

// On [0, ρ]: u^α/(α ρ^{α−1}) = clip(u)·r^(α−1)/α and slope r^(α−1), r = clip(u)/ρ; above ρ:
// u − (1 − 1/α)ρ and 1. Exponent N = α − 1: unrolled for the paper's α = 8 (N = 7) and α = 4; IntegerExponent,
// the same products in a loop, for another integral α − 1 up to 16; PowExponent (std::pow: ~10×
// slower) otherwise. Two unrolled kernels, not sixteen: every model that fuses φ (visit) is compiled
// once per kernel.
constexpr int PowExponent = -1;
constexpr int IntegerExponent = -2;
constexpr int kMaxIntegerExponent = 16;
template <int N>
struct SmoothedRelu {
  Scalar rho, inv_rho, inv_alpha, shift, exponent;
  int integer_exponent, exponent_bits;  // IntegerExponent: α − 1 and its number of bits
  SmoothedRelu(Scalar alpha, Scalar rho_)
      : rho(rho_), inv_rho(Scalar(1) / rho_), inv_alpha(Scalar(1) / alpha), shift((Scalar(1) - Scalar(1) / alpha) * rho_),
        exponent(alpha - Scalar(1)), integer_exponent(static_cast<int>(exponent)), exponent_bits(0) {
    while (exponent_bits < 31 && (integer_exponent >> exponent_bits) != 0) ++exponent_bits;
  }
  ValueSlope operator()(Scalar u) const {
    const Scalar clip = std::min(std::max(u, Scalar(0)), rho);
    Scalar p;
    if constexpr (N == PowExponent) {
      p = std::pow(clip * inv_rho, exponent);
    } else if constexpr (N == IntegerExponent) {
      p = power_of(clip * inv_rho, integer_exponent, exponent_bits);
    } else {
      p = power_of<N>(clip * inv_rho);
    }
    const bool linear = u >= rho;
    return {linear ? u - shift : clip * p * inv_alpha, linear ? Scalar(1) : p};
  }
};

struct Poly {
  int power;
  ValueSlope operator()(Scalar u) const {
    return {std::pow(u, Scalar(power)), Scalar(power) * std::pow(u, Scalar(power - 1))};
  }
};

struct Identity {
  ValueSlope operator()(Scalar u) const { return {u, Scalar(1)}; }
};

}  // namespace activation_kernel

// A pack's activation: φ and φ' elementwise over blocks.
class ActivationFunction : public Component {
 public:
  static constexpr Kind kind_id = Kind::Activation;
  static constexpr const char* interface_id = "featurelab.activation/1";

  // H = φ(Z) and D = φ'(Z), elementwise; H and D presized like Z (any block of rows: models call
  // it from parallel loops, so it must keep no mutable state).
  virtual void apply(ConstMatRef Z, MatRef H, MatRef D) const = 0;
  // One of the two only; the defaults call apply() with a scratch block.
  virtual void value(ConstMatRef Z, MatRef H) const;
  virtual void derivative(ConstMatRef Z, MatRef D) const;
};

class Activation {
 public:
  // The built-in names.
  static const std::vector<std::string>& names();
  // Adds activation, leaky_slope, smooth_alpha, smooth_rho, power to a schema.
  static void declare(Schema& schema);
  // A built-in activation, or (with the context's make_activation) any pack's by name.
  Activation(const Params& params, const Context& context);
  // The built-in activations only.
  explicit Activation(const Params& params);
  // Whether visit() can hand out an inline kernel (built-ins); a pack's activation is a block call.
  bool fusable() const { return !custom_; }

  // H = φ(Z) and D = φ'(Z), elementwise (H and D presized like Z; blocks of rows are fine).
  void apply(ConstMatRef Z, MatRef H, MatRef D) const;
  // Only H = φ(Z), or only D = φ'(Z): one pass less where the other is not needed (a forward pass
  // needs no derivative; a backward pass through a fixed second layer needs no values).
  void value(ConstMatRef Z, MatRef H) const;
  void derivative(ConstMatRef Z, MatRef D) const;
  // Calls f(kernel) once with this activation's elementwise kernel (activation_kernel::*), so a
  // model can fuse φ and φ' into its own loop: f is instantiated once per kernel type. Built-ins
  // only (fusable()); throws for a pack's activation.
  template <class F>
  void visit(F&& f) const;
  // Scalar versions, for tests and probes.
  double value(double u) const;
  double derivative(double u) const;

 private:
  template <class F>
  void visit_smoothed(F& f) const;

  Activation(const Params& params, std::nullptr_t);  // parses the name and the built-ins' parameters
  [[noreturn]] void refuse_fusing() const;

  enum class Kind { Relu, LeakyRelu, SmoothedRelu, Poly, Identity, Pack } kind_;
  std::shared_ptr<const ActivationFunction> custom_;  // kind_ == Pack
  std::string name_;
  Scalar slope_;
  Scalar alpha_;
  Scalar rho_;
  int power_;
};

template <class F>
void Activation::visit(F&& f) const {
  switch (kind_) {
    case Kind::Relu: f(activation_kernel::Relu{}); return;
    case Kind::LeakyRelu: f(activation_kernel::LeakyRelu{slope_}); return;
    case Kind::SmoothedRelu: visit_smoothed(f); return;
    case Kind::Poly: f(activation_kernel::Poly{power_}); return;
    case Kind::Identity: f(activation_kernel::Identity{}); return;
    case Kind::Pack: refuse_fusing();
  }
}

template <class F>
void Activation::visit_smoothed(F& f) const {
  const Scalar exponent = alpha_ - Scalar(1);
  const int n = static_cast<int>(exponent);
  if (static_cast<Scalar>(n) != exponent || n < 1 || n > activation_kernel::kMaxIntegerExponent) {
    f(activation_kernel::SmoothedRelu<activation_kernel::PowExponent>(alpha_, rho_));
  } else if (n == 7) {
    f(activation_kernel::SmoothedRelu<7>(alpha_, rho_));
  } else if (n == 3) {
    // α = 4, Midpoint Mixup's multi-view control arm: the loop's bit tests keep the step from vectorising,
    // 2.2× slower than the unrolled kernel (bench/README.md, round 27).
    f(activation_kernel::SmoothedRelu<3>(alpha_, rho_));
  } else {
    f(activation_kernel::SmoothedRelu<activation_kernel::IntegerExponent>(alpha_, rho_));
  }
}

}  // namespace featurelab
