// An optional second interface for models whose first stage is affine in the input:
//   Z(x) = A x + b, out = head(Z)
// so that Z(λx + (1−λ)x') = λZ(x) + (1−λ)Z(x') for any convex combination. Losses over mixed inputs (the exact Midpoint
// Mixup loss over all N² pairs) then compute the N per-sample pre-activations once and form the
// pairs in activation space, instead of running N² forward passes.
//
// A model offers it by also deriving from LinearPreactivation; a loss asks with
// dynamic_cast<LinearPreactivation*>(&model).
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

  // The exact pair losses' inner step, without forming the mixed pre-activations in memory:
  // row r of out (b×K) = head(anchor + μ·partners.row(r)), anchor (1×H) = λ·Z_i already scaled.
  // What mixed_head_backward needs stays in `scratch`, which the caller owns (one per thread: the
  // loss mixes from several threads at once, so these must not touch the model's own buffers).
  // The default forms the b×H block and calls head(), which caches in the model, so the loss then
  // mixes on one thread; a model overrides both with a fused, thread-safe pass (patch-two-layer).
  struct MixedScratch {
    Mat block, slopes;
    RowVec sums, scale;
  };
  virtual void mixed_head(const Eigen::Ref<const RowVec>& anchor, Scalar mu, ConstMatRef partners, MatRef out,
                          MixedScratch& scratch);
  // dout (b×K) for the last mixed_head with this scratch: with J_r = ∂head/∂Z at mix r, adds
  // μ·J_rᵀ dout_r to partner_dZ.row(r) and Σ_r J_rᵀ dout_r to anchor_dZ (the caller applies λ).
  virtual void mixed_head_backward(ConstMatRef dout, Scalar mu, MatRef partner_dZ, Eigen::Ref<RowVec> anchor_dZ,
                                   MixedScratch& scratch);
  // Whether mixed_head may run from several threads at once (the default path may not: head()
  // caches in the model).
  virtual bool mixes_in_parallel() const { return false; }
};

}  // namespace featurelab
