// Distribution `icl-linear-regression` (Shi 2024 ch. 5, §5.3–5.4): in-context linear regression prompts.
// Tokens x ~ N(0, Λ) with Λ = Q diag(λ) Qᵀ (Q the identity or a random rotation). A prompt is the paper's
// embedding E = [[x_1 … x_L x_q], [y_1 … y_L 0]] stored token by token: row = (x_1, y_1, …, x_L, y_L, x_q, 0),
// shape (L+1)×(d+1), L = max(context, shots); the target T = ⟨w, x_q⟩ (noiseless) and y = 1[T > 0].
//   train (pretraining) prompts: a fresh task w ~ N(0, I) per prompt, `context` = N examples, no label noise;
//   test (evaluation) prompts: the fixed task w = Q c (c = `task`, eigenbasis coordinates, zero-padded), `shots` =
//     M examples with labels y_i = ⟨w, x_i⟩ + ε_i, ε ~ N(0, σ²); unused token slots are zero (x = 0 never occurs
//     in a real token, so models count the filled ones).
// Features: basis (Qᵀ: row i = the i-th eigenvector), eigenvalues (1×d), task (1×d: c), prompt [N, M, σ].
#pragma once

#include <featurelab/distribution.hpp>

namespace featurelab::fourier_icl_pack {

class IclLinearRegression : public featurelab::Distribution {
 public:
  static constexpr featurelab::Doc kDoc =
      "In-context linear regression prompts (Shi 2024 ch. 5): x ~ N(0, QDQᵀ); pretraining prompts with w ~ N(0, I) and N "
      "clean examples (train), evaluation prompts with a fixed task w = Qc and M noisy shots (test); target ⟨w, x_q⟩.";
  static featurelab::Schema schema();
  static double dimension(const featurelab::Params& params);  // D, for the memory estimate at validation
  IclLinearRegression(const featurelab::Params& params, featurelab::Context& context);
  featurelab::DataSpec spec() const override;
  void sample(featurelab::Index n, featurelab::Split split, featurelab::Rng& rng, featurelab::Dataset& out) override;
  featurelab::FeatureSet features() const override;

 private:
  featurelab::Index d_, context_, shots_, slots_;
  double sigma_;
  featurelab::VecD lambda_, task_;
  featurelab::MatD Q_;       // columns: eigenvectors
  featurelab::MatD root_;    // Q D^{1/2}: x = root_ g with g ~ N(0, I)
  featurelab::VecD w_test_;  // Q c
};

}  // namespace featurelab::fourier_icl_pack
