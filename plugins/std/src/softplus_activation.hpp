// Activation `softplus`: φ(u) = log(1 + eᵘ), a smooth ReLU; φ'(u) = σ(u), the logistic function. Computed as
// max(u, 0) + log1p(e^−|u|), which neither overflows for large u nor loses the small values of u ≪ 0.
// As a layer: use = "softplus".
#pragma once

#include <featurelab/activation.hpp>

namespace featurelab::std_pack {

class SoftplusActivation : public ActivationFunction {
 public:
  static constexpr Doc kDoc =
      "softplus log(1 + eᵘ) (stable form), derivative σ(u); vectorised, the same bits for an entry wherever it "
      "lies in a block.";
  static Schema schema() { return {}; }
  SoftplusActivation(const Params& params, Context& context);
  void apply(ConstMatRef Z, MatRef H, MatRef D) const override;
  void value(ConstMatRef Z, MatRef H) const override;
  void derivative(ConstMatRef Z, MatRef D) const override;
};

}  // namespace featurelab::std_pack
