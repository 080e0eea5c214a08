// In-context linear regression with linear self-attention, in closed form (Shi 2024 ch. 5, §5.4, Lemma 5.1,
// Thms. 5.4.1–5.4.3), in double. Tokens x ~ N(0, Λ), Λ = Q D Qᵀ, D = diag(λ_1 ≥ … ≥ λ_d); task w; the reduced
// LSA predicts ŷ = hᵀ Γ x_q with h = (1/ρ) Σ_i y_i x_i and Γ = u·U (U of rank r). Everything is in the eigenbasis:
// c = Qᵀw and G = QᵀΓQ.
//   Evaluation loss at M shots with label noise σ (the exact expectation, Thm. 5.4.2 for any G):
//     L = ‖(G D − I) c‖²_D + (1/M) tr(D G C Gᵀ),   C = D c cᵀ D + (cᵀ D c + σ²) D
//   Pretraining loss (w ~ N(0, I), ρ = N, no noise; Lemma 5.1 without the ½ and the constant):
//     ℓ(G) = tr((G D − I)ᵀ D (G D − I)) + (1/N) tr(D G (D² + tr(D) D) Gᵀ)
//   Its rank-r minimiser (Thm. 5.4.1): G* = diag(v_1, …, v_r, 0, …), v_i = N / ((N+1) λ_i + tr D).
// With G* and c = s + ξ (s on the top r coordinates) the evaluation loss is the chapter's
//   (1/M)‖s‖²_{V²D³} + (1/M)(‖s+ξ‖²_D + σ²) tr(V²D²) + ‖ξ‖²_D + Σ_{i≤r} s_i² λ_i (λ_i v_i − 1)².
#pragma once

#include <featurelab/types.hpp>

namespace featurelab::fourier_icl_pack {

struct IclSetting {
  featurelab::VecD eigenvalues;  // λ_1 ≥ … ≥ λ_d
  double context = 1000;         // N (pretraining prompt length)
};

// diag(G*) of the rank-r optimum.
featurelab::VecD optimal_coefficients(const IclSetting& s, int rank);
// Evaluation loss of G (eigenbasis) for task c at M shots and noise σ.
double evaluation_loss(const IclSetting& s, const featurelab::MatD& G, const featurelab::VecD& c, double shots, double sigma);
// The same for the rank-r optimum.
double optimal_evaluation_loss(const IclSetting& s, int rank, const featurelab::VecD& c, double shots, double sigma);
// Pretraining loss ℓ(G).
double pretraining_loss(const IclSetting& s, const featurelab::MatD& G);

}  // namespace featurelab::fourier_icl_pack
