// Model `multihead-relu-attention` (Shi 2024 ch. 5, §5.5): the two-layer multi-head model for in-context parity,
//     g(X, y, x_q) = Σ_{i=1}^{m} a_i ReLU(hᵀ W^{(i)} x_q),   h = (1/ρ) Σ_l y_l x_l,
// each head the reduced linear self-attention; scale = the number of heads m. Blocks W (m×d²: row i is W^{(i)}
// row-major) and a (1×m). init gaussian (W ~ N(0, init_scale²), a alternating ±1) or one of Thm. 5.5.1's optima
// (App. D.3.1), with V^{(i)} = GᵀW^{(i)}G diagonal, v_2 = log2 d, v_1 = log2 k:
//   large (g_2*, m = 2(v_2 + 1)): heads b = 1 … v_2 with a = −1 and V_tt = (2·bit_b(t − 1) − 1)/(4γ); one head with
//     a = +1 and V = −(v_2/(4γ)) I; then the mirror heads V ↦ −V with the same a;
//   small (g_1*, m = 2(v_1 + 1)): the same with the bits b = 1 … v_1 only and the positive head scaled by v_1;
//   graded (ours, m = 4): one head with distinct diagonal entries V_tt = (t − (d − 1)/2)/(2γ), a = −1, the positive
//     head with v = d − 1, and their mirrors: margin ≥ 1 on every task of S_1 and S_2 with g_1*'s head count, so
//     population hinge loss 0 where g_1* has p_T · (its S_2 loss) > 0 (see the README, Thm. 5.5.1 by training).
// Reading G and γ from the distribution's features (icl-sparse-parity). a is not clipped to [−1, 1] during training
// (the theory's box constraint); the constructions satisfy it.
#pragma once

#include "common/contract_setups.hpp"

#include "prompt_tokens.hpp"

#include <featurelab/model.hpp>

#include <string>

namespace featurelab::fourier_icl_pack {

class MultiheadReluAttention : public featurelab::Model {
 public:
  static constexpr featurelab::Doc kDoc =
      "g = Σ_i a_i ReLU(hᵀ W^(i) x_q) over m reduced-LSA heads (Shi 2024 §5.5); init gaussian or Thm. 5.5.1's "
      "constructions (construction = small: 2(log2 k + 1) heads, large: 2(log2 d + 1) heads), or graded: 4 heads "
      "that cover every task.";
  static featurelab::Schema schema();
  static featurelab::ContractData contract_data() { return icl_parity_contract(); }
  MultiheadReluAttention(const featurelab::Params& params, featurelab::Context& context);
  featurelab::Index outputs() const override { return 1; }
  void init(featurelab::Rng& rng) override;
  void forward(featurelab::ConstMatRef X, featurelab::MatRef out) override;
  void backward(featurelab::ConstMatRef X, featurelab::ConstMatRef dout, featurelab::VecRef grad) override;

 private:
  PromptShape shape_;
  featurelab::BlockHandle W_, a_;
  featurelab::Index heads_;
  std::string init_;
  double init_scale_;
  featurelab::MatD G_;
  double gamma_ = 0;
  int v1_ = 0, v2_ = 0;
  featurelab::Mat H_, Xq_, S_;  // S_: n×m head scores hᵀW^(i)x_q
  featurelab::Mat T_;           // n×(m·d): hᵀ W^(i) for every head
  featurelab::Vec gate_;        // dout ⊙ a_i 1[s_i > 0] (one head at a time)
};

// The diagonals of V^{(i)} = GᵀW^{(i)}G (d×m) and a (m) of a construction: `bits` digit heads, positive scale v.
void parity_construction(int d, int bits, double v, double gamma, featurelab::MatD& diagonals, featurelab::VecD& a);

// The same for `graded`: 4 heads, one with graded diagonal entries.
void graded_construction(int d, double gamma, featurelab::MatD& diagonals, featurelab::VecD& a);

}  // namespace featurelab::fourier_icl_pack
