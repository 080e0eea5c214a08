// Gauss–Jacobi quadrature for expectations under λ ~ Beta(a, a) on [0, 1]:
//   E[f(λ)] ≈ Σ_q w_q f(λ_q),   exact for polynomials of degree < 2Q.
// The Beta density's endpoint singularities (a < 1, as practice's Beta(0.2, 0.2)) are part of the
// weight function, so they cost no accuracy. Nodes by Golub–Welsch: the eigenvalues of the Jacobi
// matrix of the orthogonal polynomials for (1−t)^{a−1}(1+t)^{a−1} on [−1, 1], weights from the
// first components of its eigenvectors.
#pragma once

#include <featurelab/types.hpp>

namespace featurelab::midpoint_mixup_pack {

struct Quadrature {
  featurelab::VecD nodes;    // in (0, 1), ascending
  featurelab::VecD weights;  // positive, sum to 1
};

// Throws featurelab::Error unless a > 0 and 1 <= points <= 1000.
Quadrature beta_quadrature(double a, int points);

}  // namespace featurelab::midpoint_mixup_pack
