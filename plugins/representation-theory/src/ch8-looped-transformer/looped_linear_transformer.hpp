// Model `looped-linear-transformer` (Shi 2024 ch. 8, Defs. 8.6–8.7, Lemma 8.13, Thm. 8.14): one linear attention
// layer applied T times with weight tying and a residual step, on the whole prompt matrix.
//   Attn(Z; Q, P) = (M ∘ (Z Q Zᵀ)) Z P,   M[n+1, 1..n] = 1, every other entry 0 (only the query row attends, and only
//                                         to the n examples; M is applied as a Hadamard product, as the chapter says)
//   Z^(t) = Z^(t−1) − η Attn(Z^(t−1); Q, P),  t = 1 … T;    TF(Z^(0)) = −Z^(T)_{n+1, 1:d}
// Q, P ∈ R^{(d+1)×(d+1)} are the construction Q = I, P = diag(I_d, 0) (optionally perturbed, to watch the equivalence
// break); nothing is trained. The step η is 1/λ_max(XᵀX) of each prompt, as the chapter's experiment (so the "weights"
// read the prompt's spectrum), or a constant. Every loop is computed literally on the (n+1)×(d+1) matrix
// in double whatever featurelab::Scalar is (`precision = "float32"` runs the same loops in float, to show that floor).
#pragma once

#include "../contract_setups.hpp"

#include "prompt_layout.hpp"

#include <featurelab/model.hpp>

namespace featurelab::representation_theory_pack {

class LoopedLinearTransformer : public featurelab::Model {
 public:
  static constexpr featurelab::Doc kDoc =
      "Shi 2024 Defs. 8.6–8.7: Z ← Z − η (M ∘ ZQZᵀ) Z P for T loops on the prompt matrix, output −Z_{n+1,1:d}; "
      "Q = I, P = diag(I_d, 0) (Lemma 8.13); η = 1/λ_max(XᵀX) per prompt or constant; computed in double.";
  static featurelab::Schema schema();
  static featurelab::ContractData contract_data() { return looped_contract(); }
  LoopedLinearTransformer(const featurelab::Params& params, featurelab::Context& context);

  featurelab::Index outputs() const override { return shape_.d; }
  void init(featurelab::Rng& rng) override;
  // X: m prompts flattened (m×(n+1)(d+1)) -> out: m×d, TF of each.
  void forward(featurelab::ConstMatRef X, featurelab::MatRef out) override;
  void backward(featurelab::ConstMatRef X, featurelab::ConstMatRef dout, featurelab::VecRef grad) override;

  // What the probes call, in double. Z: one prompt matrix (n+1)×(d+1).
  struct Trace {
    featurelab::MatD Z;  // Z^(T)
    featurelab::MatD q;  // (T+1)×d: row t = q^(t), the first d entries of Z^(t)'s last row
  };
  featurelab::MatD attention(const featurelab::MatD& Z) const;  // Def. 8.6, one application (float64)
  double step_size(const featurelab::MatD& Z0) const;            // η for this prompt
  Trace unroll(const featurelab::MatD& Z0) const;                // Def. 8.7, all T loops
  featurelab::Index loops() const { return loops_; }
  const PromptShape& prompt_shape() const { return shape_; }

 private:
  template <class T>
  Trace unroll_in(const featurelab::MatD& Z0, double eta) const;
  void construct();
  void check_prompt(const featurelab::MatD& Z) const;

  PromptShape shape_;
  featurelab::BlockHandle Q_, P_;
  featurelab::Index loops_;
  bool constant_step_, single_precision_;
  double eta_, perturb_;
};

// The model of a probe's input as the looped transformer; throws naming `who` (the probe) otherwise.
const LoopedLinearTransformer& as_looped_transformer(const featurelab::Model& model, const std::string& who);

}  // namespace featurelab::representation_theory_pack
