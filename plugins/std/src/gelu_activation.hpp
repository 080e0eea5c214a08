// Activation `gelu`: φ(u) = u·Φ(u), Φ the standard normal CDF, in its exact erf form Φ(u) = (1 + erf(u/√2))/2
// (not the tanh approximation), as the transformer of Shi 2024 ch. 4 (fourier-icl) and PyTorch's nn.GELU();
// φ'(u) = Φ(u) + u·ϕ(u), ϕ the normal density. As a layer: use = "gelu".
#pragma once

#include <featurelab/activation.hpp>

namespace featurelab::std_pack {

class GeluActivation : public ActivationFunction {
 public:
  static constexpr Doc kDoc =
      "GELU u·Φ(u) in the exact erf form, derivative Φ(u) + u·ϕ(u); vectorised, the same bits for an entry "
      "wherever it lies in a block.";
  static Schema schema() { return {}; }
  GeluActivation(const Params& params, Context& context);
  void apply(ConstMatRef Z, MatRef H, MatRef D) const override;
  void value(ConstMatRef Z, MatRef H) const override;
  void derivative(ConstMatRef Z, MatRef D) const override;
};

}  // namespace featurelab::std_pack
