// The truncated ReLU σ(z) = min(1, max(z, 0)) of Shi 2024 ch. 2 and its Gaussian smoothing
// σ_s(z) = E_ξ σ(z + ξ), ξ ~ N(0, s²) (Eq. 2.3), in closed form rather than by Monte Carlo:
//   E relu(z + ξ) = z Φ(z/s) + s φ(z/s),   σ_s(z) = E relu(z + ξ) − E relu(z − 1 + ξ),
//   σ_s′(z) = Φ(z/s) − Φ((z − 1)/s)        (= E_ξ 1[z + ξ ∈ (0, 1)], Lemma A.6).
// s = 0 is the plain truncated ReLU with σ′(z) = 1[z ∈ (0, 1)]. Also the init and parameters the
// network and its NTK linearisation share.
#pragma once

#include <featurelab/params.hpp>
#include <featurelab/rng.hpp>
#include <featurelab/types.hpp>

namespace featurelab::feature_emergence_pack {

// Writes σ_s(Z) into H and σ_s′(Z) into dH (same shapes as Z).
void truncated_relu(featurelab::ConstMatRef Z, double smoothing, featurelab::MatRef H, featurelab::MatRef dH);

// The parameters both the network and its linearisation take: width 2m, σ_w, σ_b, σ_a, smoothing s.
void declare_network_schema(featurelab::Schema& s);

// Ch. 2's unbiased init: w_i ~ N(0, σ_w² I), b_i ~ N(0, σ_b²), a_i ~ N(0, σ_a²) for i < m, and the
// twins w_{m+i} = w_i, b_{m+i} = b_i, a_{m+i} = −a_i, so the network's output is exactly 0.
void symmetric_init(featurelab::Rng& rng, double sigma_w, double sigma_b, double sigma_a, featurelab::MatRef W,
                    featurelab::MatRef b, featurelab::MatRef a);

}  // namespace featurelab::feature_emergence_pack
