#pragma once

#include "common/contract_setups.hpp"

#include <featurelab/model.hpp>

#include <string>

namespace featurelab::fourier_icl_pack {

// Model `linear-self-attention` (Eq. 5.1–5.3, the theory's reduced form): ŷ = u · hᵀ A Bᵀ x_q with
// h = (1/ρ) Σ_i y_i x_i over the prompt's filled tokens (ρ = their number: N in pretraining, M at evaluation) and
// U = ABᵀ of rank r (A, B ∈ R^{d×r}: the scale of the model). init gaussian (A, B ~ N(0, init_scale²), u = 1) or
// closed-form (Thm. 5.4.1's rank-r optimum from the distribution's basis, eigenvalues and N). Blocks A, B, u.
class LinearSelfAttention : public featurelab::Model {
 public:
  static constexpr featurelab::Doc kDoc =
      "Reduced linear self-attention ŷ = u·((1/ρ)Σ y_i x_i)ᵀ A Bᵀ x_q with U = ABᵀ of rank r (Shi 2024 Eq. 5.1–5.3); "
      "init gaussian or the closed-form rank-r optimum (Thm. 5.4.1).";
  static featurelab::Schema schema();
  static featurelab::ContractData contract_data() { return icl_regression_contract(); }
  LinearSelfAttention(const featurelab::Params& params, featurelab::Context& context);
  featurelab::Index outputs() const override { return 1; }
  void init(featurelab::Rng& rng) override;
  void forward(featurelab::ConstMatRef X, featurelab::MatRef out) override;
  void backward(featurelab::ConstMatRef X, featurelab::ConstMatRef dout, featurelab::VecRef grad) override;

 private:
  void summarize(featurelab::ConstMatRef X);  // H_ (context averages) and Xq_ (queries)
  featurelab::BlockHandle A_, B_, u_;
  featurelab::Index d_, slots_, rank_;
  double init_scale_;
  std::string init_;
  featurelab::FeatureSet features_;
  featurelab::Mat H_, Xq_, P_, R_;  // n×d, n×d, HA, Xq B
};

}  // namespace featurelab::fourier_icl_pack
