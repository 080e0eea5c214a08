// Model `ntk-two-layer`: the NTK baseline of Shi 2024 App. A.7.1 — the truncated-two-layer network at
// its (symmetric) init θ0, linearised: f(x; θ) = g(x; θ0) + ⟨∇_θ g(x; θ0), θ − θ0⟩ with g(·; θ0) ≡ 0.
// The tangent features are never materialised (for n = 50000 and ~300k parameters they would not
// fit): with Z0 = XW0ᵀ + b0, H0 = σ(Z0), S0 = σ′(Z0) ⊙ a0,
//   f = H0·Δaᵀ + rowsum(S0 ⊙ (X ΔWᵀ + Δb)),
// so a step costs two GEMMs with X, as the network's does. Trainable blocks ΔW, Δb, Δa start at 0.
// On data with input codes X = C·B (CodedInputs) both run through them, as truncated-two-layer's.
#pragma once

#include <featurelab/capabilities.hpp>
#include <featurelab/model.hpp>
#include <featurelab/scratch_rows.hpp>

namespace featurelab::feature_emergence_pack {

class NtkTwoLayer : public featurelab::Model, public featurelab::CodedInputs {
 public:
  static constexpr featurelab::Doc kDoc =
      "The truncated-two-layer network linearised at its symmetric init (neural tangent features, never "
      "materialised): trains ΔW, Δb, Δa of f = H0 Δa + rowsum(σ′(Z0) a0 ⊙ (X ΔWᵀ + Δb)).";
  static featurelab::Schema schema();
  static std::map<std::string, featurelab::Value> test_params() { return {{"width", std::int64_t(8)}}; }
  NtkTwoLayer(const featurelab::Params& params, featurelab::Context& context);
  featurelab::Index outputs() const override { return 1; }
  void init(featurelab::Rng& rng) override;
  void forward(featurelab::ConstMatRef X, featurelab::MatRef out) override;
  void backward(featurelab::ConstMatRef X, featurelab::ConstMatRef dout, featurelab::VecRef grad) override;
  bool forward_coded(const featurelab::Batch& batch, featurelab::MatRef out) override;
  bool backward_coded(const featurelab::Batch& batch, featurelab::ConstMatRef dout, featurelab::VecRef grad) override;

 private:
  featurelab::BlockHandle dW_, db_, da_, W0_, b0_, a0_;
  featurelab::Index width_, dim_;
  double sigma_w_, sigma_b_, sigma_a_, smoothing_;
  // n × 2m for the last forward pass's n rows, kept across calls (featurelab/scratch_rows.hpp).
  featurelab::ScratchRows Z_, H_, S_, G_;
  featurelab::Mat codes_by_w_, grad_by_codes_;  // B·W0ᵀ then B·ΔWᵀ (D×2m), and Gᵀ·C (2m×D), of the coded path

  // From Z = XW0ᵀ in Z_: H0, S0; then from Z = XΔWᵀ (written by `delta` into Z_) the output.
  template <class Delta>
  void linearised(Delta&& delta, featurelab::MatRef out);
  // ∇Δa, ∇Δb and G = S0 ⊙ dout (in G_); ∇ΔW is the caller's.
  void output_gradients(featurelab::ConstMatRef dout, featurelab::VecRef grad);
};

}  // namespace featurelab::feature_emergence_pack
