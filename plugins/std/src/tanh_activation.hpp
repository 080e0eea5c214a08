// Activation `tanh`: φ(u) = tanh(u), φ'(u) = 1 − tanh²(u). A pack's activation, registered like any
// component: `two-layer` with activation = "tanh" is the same network with its own backward pass
// unchanged (the model multiplies by φ' from apply()).
#pragma once

#include <featurelab/activation.hpp>

namespace featurelab::std_pack {

class TanhActivation : public ActivationFunction {
 public:
  static constexpr Doc kDoc = "tanh(u), derivative 1 − tanh²(u), computed a block at a time (Eigen array tanh).";
  static Schema schema() { return {}; }
  TanhActivation(const Params& params, Context& context);
  void apply(ConstMatRef Z, MatRef H, MatRef D) const override;
  void value(ConstMatRef Z, MatRef H) const override;
};

}  // namespace featurelab::std_pack
