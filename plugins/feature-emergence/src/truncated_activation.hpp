// The truncated ReLU σ(z) = min(1, max(z, 0)) of Shi 2024 ch. 2 and its Gaussian smoothing
// σ_s(z) = E_ξ σ(z + ξ), ξ ~ N(0, s²) (Eq. 2.3), in closed form rather than by Monte Carlo:
//   E relu(z + ξ) = z Φ(z/s) + s φ(z/s),   σ_s(z) = E relu(z + ξ) − E relu(z − 1 + ξ),
//   σ_s′(z) = Φ(z/s) − Φ((z − 1)/s)        (= E_ξ 1[z + ξ ∈ (0, 1)], Lemma A.6).
// s = 0 is the plain truncated ReLU with σ′(z) = 1[z ∈ (0, 1)].
#pragma once

#include <featurelab/types.hpp>

namespace feature_emergence {

// Writes σ_s(Z) into H and σ_s′(Z) into dH (same shapes as Z).
void truncated_relu(featurelab::ConstMatRef Z, double smoothing, featurelab::MatRef H, featurelab::MatRef dH);

}  // namespace feature_emergence
