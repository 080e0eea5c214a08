// Chapter 8's reference side, in double and independent of the transformer (Shi 2024 §8.3.4, §8.5): plain gradient
// descent on the in-context least squares ℓ(θ) = ½‖y − Xθ‖² (Def. 8.9, eq. 8.2), the condition number of XᵀX
// (Def. 8.12) and the error bounds the chapter proves for it.
//   GD:       θ^(t) = θ^(t−1) − η (Xᵀ(Xθ^(t−1) − y)),  θ^(0) given (the looped transformer starts at −q^(0)/α = 0)
//   Thm 8.25: ‖θ^(t) − θ*‖² ≤ e^{−t/κ} ‖θ^(0) − θ*‖²                    (η = 1/λ_max, via (1 − 1/κ)^t ≤ e^{−t/κ})
//   exact:    ‖θ^(t) − θ*‖² ≤ (1 − 1/κ)^{2t} ‖θ^(0) − θ*‖²              (the GD map on a quadratic contracts by
//             ‖I − ηXᵀX‖ = 1 − 1/κ per step: the bound Thm 8.25 loosens by a factor 2 in the exponent)
//   Thm 8.16: |⟨TF, θ*⟩ − α| ≤ |α| e^{−t/(2κ)}
#pragma once

#include <featurelab/types.hpp>

namespace featurelab::representation_theory_pack {

// The extreme eigenvalues of XᵀX (X: n×d, n ≥ d) and κ = λ_max / λ_min (∞ when XᵀX is singular).
struct GramSpectrum {
  double lambda_min = 0;
  double lambda_max = 0;
  double kappa() const;
};
GramSpectrum gram_spectrum(const featurelab::MatD& X);

// GD on ½‖y − Xθ‖² from theta0 with the constant step eta, `steps` steps: row t of the result is θ^(t)ᵀ
// (X: n×d, y: n, theta0: d -> (steps+1)×d). The gradient is formed as Xᵀ(Xθ − y), not through the Gram matrix, so it
// shares no arithmetic with the transformer's (qᵀXᵀ + αyᵀ)X.
featurelab::MatD gd_trajectory(const featurelab::MatD& X, const featurelab::VecD& y, const featurelab::VecD& theta0,
                               double eta, featurelab::Index steps);

// The bounds on the normalised squared error ‖θ^(t) − θ*‖² / ‖θ^(0) − θ*‖², as natural logs, at loop t.
double log_theory_bound(double t, double kappa);    // −t/κ (Thm 8.25)
double log_exact_gd_bound(double t, double kappa);  // 2t·ln(1 − 1/κ) (exact GD; −∞ at κ = 1, where one step is exact)

}  // namespace featurelab::representation_theory_pack
