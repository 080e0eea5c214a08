// Distribution `icl-sparse-parity` (Shi 2024 ch. 5, §5.5): in-context (d, 2)-sparse parity. Hidden φ ∈ {±1}^d,
// input x = Gφ (G orthonormal: the identity or a random rotation), label y = φ_i φ_j for the prompt's task (i, j):
// the other coordinates are uniform, (φ_i, φ_j) = (1, 1) w.p. 1/4 + γ, (−1, −1) w.p. 1/4 − γ, the mixed pairs 1/4
// each (so E[y φ_i] = E[y φ_j] = 2γ). Tasks: S_1 = pairs inside the important set A = [k], S_2 = the other pairs.
//   train prompts: the task is uniform on S_1 w.p. 1 − p_T and on S_2 w.p. p_T; `context` = N examples, or with
//     context = 0 the population context (N → ∞, Thm. 5.5.1): one token (G z, 1) with z_i = z_j = 2γ, so that
//     the context average (1/ρ) Σ y_l x_l is exactly G z;
//   test prompts: the task uniform on S_1 (or on the mixture: test_tasks), `shots` = M examples of which exactly
//     round(flip·M) have their label negated (the query's never is).
// The layout is icl-linear-regression's: tokens (x, y), the query (x_q, 0) last; y = 1 iff the query's φ_iφ_j = 1.
// Meta task_i, task_j (1-based), in_s1. Features dictionary (Gᵀ: row l = the l-th feature G_l), setting [d, k, γ, p_T].
#pragma once

#include <featurelab/distribution.hpp>

namespace featurelab::fourier_icl_pack {

class IclSparseParity : public featurelab::Distribution {
 public:
  static constexpr featurelab::Doc kDoc =
      "In-context 2-sparse parity (Shi 2024 §5.5): x = Gφ, y = φ_iφ_j with P(φ_i, φ_j) biased by γ, tasks from the "
      "important pairs S_1 (or S_2 w.p. p_T); population or N-example contexts (train), M-shot prompts with flipped "
      "context labels (test).";
  static featurelab::Schema schema();
  static double dimension(const featurelab::Params& params);  // D, for the memory estimate at validation
  IclSparseParity(const featurelab::Params& params, featurelab::Context& context);
  featurelab::DataSpec spec() const override;
  void sample(featurelab::Index n, featurelab::Split split, featurelab::Rng& rng, featurelab::Dataset& out) override;
  featurelab::FeatureSet features() const override;

 private:
  // φ for task (i, j) (0-based) into phi.
  void draw_phi(featurelab::Index i, featurelab::Index j, featurelab::Rng& rng, featurelab::VecD& phi) const;
  featurelab::Index d_, k_, context_, shots_, slots_;
  double gamma_, p_task_, flip_;
  bool test_mixed_;
  featurelab::MatD G_;
};

}  // namespace featurelab::fourier_icl_pack
