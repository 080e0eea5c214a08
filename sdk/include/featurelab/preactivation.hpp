// An optional second interface for models whose first stage is affine in the input:
//   Z(x) = A x + b, out = head(Z)
// so that Z(λx + (1−λ)x') = λZ(x) + (1−λ)Z(x') for any convex combination. Losses over mixed inputs (the exact Midpoint
// Mixup loss over all N² pairs) then compute the N per-sample pre-activations once and form the
// pairs in activation space, instead of running N² forward passes.
//
// A model offers it by also deriving from LinearPreactivation; a loss asks with
// dynamic_cast<LinearPreactivation*>(&model). Adding it changes no existing class layout.
#pragma once

#include <featurelab/types.hpp>

namespace featurelab {

class LinearPreactivation {
 public:
  virtual ~LinearPreactivation() = default;
  // H: pre-activations per sample.
  virtual Index preactivation_width() const = 0;
  // X: n×D -> Z: n×H (presized, contiguous), Z = A x + b per row.
  virtual void preactivations(ConstMatRef X, MatRef Z) = 0;
  // Z: n×H (contiguous) -> out: n×K; caches what head_backward needs.
  virtual void head(ConstMatRef Z, MatRef out) = 0;
  // dout: n×K for the last head() -> dZ: n×H.
  virtual void head_backward(ConstMatRef dout, MatRef dZ) = 0;
  // dZ: n×H for inputs X -> grad (trainable_size()) of Σ_ij dZ_ij Z_ij(X), written.
  virtual void preactivation_backward(ConstMatRef X, ConstMatRef dZ, VecRef grad) = 0;
};

}  // namespace featurelab
