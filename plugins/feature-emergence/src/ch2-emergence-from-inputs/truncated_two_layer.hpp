// Model `truncated-two-layer` (Shi 2024 ch. 2, Eq. 2.2–2.3): g(x) = Σ_{i=1}^{2m} a_i σ_s(⟨w_i, x⟩ + b_i)
// with the truncated ReLU, optionally Gaussian-smoothed (s = smoothing; Tunable "smoothing", so a
// phased trainer switches it off after the first steps). Symmetric ("unbiased") init: w_i ~ N(0, σ_w² I),
// b_i ~ N(0, σ_b²), a_i ~ N(0, σ_a²), and w_{m+i} = w_i, b_{m+i} = b_i, a_{m+i} = −a_i, so g ≡ 0 at init.
// All of W, b, a are trained. Blocks W (2m×d), b (1×2m), a (1×2m).
// On data with input codes X = C·B (dictionary-patterns: C n×D, B D×d) the products run through them
// (CodedInputs): Z = C·(B·Wᵀ) and ∇W = (dZᵀ·C)·B, D/d of the arithmetic.
#pragma once

#include <featurelab/capabilities.hpp>
#include <featurelab/model.hpp>
#include <featurelab/scratch_rows.hpp>
#include <featurelab/tunable.hpp>

namespace featurelab::feature_emergence_pack {

class TruncatedTwoLayer : public featurelab::Model, public featurelab::Tunable, public featurelab::CodedInputs {
 public:
  static constexpr featurelab::Doc kDoc =
      "g(x) = Σ a_i σ_s(<w_i,x> + b_i), truncated ReLU with closed-form Gaussian smoothing s, symmetric init (g ≡ 0 "
      "at init), all layers trained (Shi 2024 Eq. 2.2–2.3).";
  static featurelab::Schema schema();
  static std::map<std::string, featurelab::Value> test_params() { return {{"width", std::int64_t(8)}}; }
  TruncatedTwoLayer(const featurelab::Params& params, featurelab::Context& context);
  featurelab::Index outputs() const override { return 1; }
  void init(featurelab::Rng& rng) override;
  void forward(featurelab::ConstMatRef X, featurelab::MatRef out) override;
  void backward(featurelab::ConstMatRef X, featurelab::ConstMatRef dout, featurelab::VecRef grad) override;
  void input_gradient(featurelab::ConstMatRef X, featurelab::ConstMatRef dout, featurelab::MatRef dX) override;
  bool forward_coded(const featurelab::Batch& batch, featurelab::MatRef out) override;
  bool backward_coded(const featurelab::Batch& batch, featurelab::ConstMatRef dout, featurelab::VecRef grad) override;
  void tune(const std::string& setting, double value) override;
  std::vector<featurelab::HookSpec> hook_points() const override;
  void hook(const std::string& name, featurelab::ConstMatRef X, featurelab::Mat& out) override;

 private:
  featurelab::BlockHandle W_, b_, a_;
  featurelab::Index width_, dim_;
  double sigma_w_, sigma_b_, sigma_a_, smoothing_;
  // n × 2m for the last forward pass's n rows, kept across calls (featurelab/scratch_rows.hpp).
  featurelab::ScratchRows Z_, H_, dH_;
  featurelab::Mat codes_by_w_, grad_by_codes_;  // B·Wᵀ (D×2m) and dZᵀ·C (2m×D) of the coded path

  // H = σ_s(Z + b), dH = σ_s′, out = H aᵀ, from Z = XWᵀ in Z_.
  void finish_forward(featurelab::MatRef out);
  // ∇a, ∇b and dZ (in dH_, in place) from dout; ∇W is the caller's.
  void output_gradients(featurelab::ConstMatRef dout, featurelab::VecRef grad);
};

}  // namespace featurelab::feature_emergence_pack
