// Activation `truncated-relu`: Shi 2024 ch. 2's σ(z) = min(1, max(z, 0)), σ′(z) = 1[z ∈ (0, 1)], so a
// `network` of std layers can use it (linear → truncated-relu → linear is truncated-two-layer's net at
// smoothing 0). The Gaussian-smoothed σ_s stays the model's (a Tunable setting a trainer switches off).
#pragma once

#include <featurelab/activation.hpp>

namespace featurelab::feature_emergence_pack {

class TruncatedReluActivation : public featurelab::ActivationFunction {
 public:
  static constexpr featurelab::Doc kDoc =
      "Truncated ReLU min(1, max(z, 0)) of Shi 2024 Eq. 2.2, derivative 1[z in (0, 1)].";
  static featurelab::Schema schema() { return {}; }
  TruncatedReluActivation(const featurelab::Params& params, featurelab::Context& context);
  void apply(featurelab::ConstMatRef Z, featurelab::MatRef H, featurelab::MatRef D) const override;
  void value(featurelab::ConstMatRef Z, featurelab::MatRef H) const override;
};

}  // namespace featurelab::feature_emergence_pack
