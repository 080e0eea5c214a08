// Regularizer `neuron-norm` (Shi 2024 ch. 4, §4.3.1 and Def. 4.1): the L_{2,k+1} norm of the poly-one-hidden-layer
// network's parameters,
//     ‖θ‖_{2,k+1} = (Σ_{i=1}^{m} ‖θ_i‖_2^{k+1})^{1/(k+1)},   ‖θ_i‖_2² = Σ_j ‖u_{i,j}‖² + ‖w_i‖²,
// where θ_i is neuron i's row of U (m×kp) concatenated with its row of W (m×p). The norm under which γ* is the
// maximum normalised margin (Def. 4.4, Thm. 4.9), and the one Lemma 4.7 (Wei et al. 2019, Thm. 4.1) sends the
// regularised minimiser's margin to as λ → 0; unlike an optimizer's decoupled weight decay (whose limit is the
// ‖θ‖_F max-margin) it is part of the objective L_λ = loss + λ‖θ‖_{2,k+1} (Def. 4.1).
//   exponent = "norm":  λ‖θ‖_{2,k+1}              (Def. 4.1 as printed; not differentiable at θ = 0 only)
//   exponent = "power": λ‖θ‖_{2,k+1}^{k+1} = λ Σ_i ‖θ_i‖^{k+1}  (smooth; Wei et al.'s λ‖θ‖^r form, same λ → 0 limit)
// Gradient with s_i = ‖θ_i‖², P = Σ_i s_i^{(k+1)/2}: ∂P/∂θ_i = (k+1) s_i^{(k−1)/2} θ_i, and
// ∂P^{1/(k+1)}/∂θ_i = P^{1/(k+1) − 1} s_i^{(k−1)/2} θ_i.
#pragma once

#include "common/contract_setups.hpp"

#include <featurelab/regularizer.hpp>

#include <map>
#include <string>

namespace featurelab::fourier_icl_pack {

class NeuronNorm : public featurelab::Regularizer {
 public:
  static constexpr featurelab::Doc kDoc =
      "λ‖θ‖_{2,k+1} (Shi 2024 Def. 4.1) of poly-one-hidden-layer: per neuron the l2 norm of (u_{i,1..k}, w_i), the "
      "(k+1)-norm over neurons; exponent = \"power\" penalises ‖θ‖_{2,k+1}^{k+1} instead. Added to the loss.";
  static featurelab::Schema schema();
  // λ = 0 (the default) would check nothing.
  static std::map<std::string, featurelab::Value> test_params() { return {{"lambda", 0.1}}; }
  static featurelab::ContractData contract_data() { return modular_mlp_contract(); }
  NeuronNorm(const featurelab::Params& params, featurelab::Context& context);
  void bind(featurelab::Model& model) override;
  featurelab::Scalar add_penalty(featurelab::Model& model, const featurelab::Batch& batch, featurelab::Index step,
                                 featurelab::VecRef grad) override;
  featurelab::Scalar penalty(featurelab::Model& model, const featurelab::Batch& batch, featurelab::Index step) override;

 private:
  // s_i = ‖θ_i‖² per neuron (m), in double; returns P = Σ_i s_i^{(k+1)/2}.
  double neuron_norms(const featurelab::Model& model);
  double value(double P) const;  // λP or λP^{1/(k+1)}

  double lambda_;
  bool power_;
  int k_ = 0;
  featurelab::Index m_ = 0, u_offset_ = 0, u_cols_ = 0, w_offset_ = 0, w_cols_ = 0;
  featurelab::VecD squared_;  // s_i
};

}  // namespace featurelab::fourier_icl_pack
