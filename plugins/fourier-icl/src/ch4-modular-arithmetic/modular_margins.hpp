// Margins of the poly-one-hidden-layer network over the FULL table D_p (all p^k tuples, never a split: a
// subset's minimum can exceed γ*), in double, in chunks so that the p^k × p logits are never stored:
//   g(θ, a, y) = f[y] − max_{c≠y} f[c]                 (Def. 4.2)
//   g′(θ, a, y) = f[y] − (1/(p−1)) Σ_{c≠y} f[c]        (the class-weighted margin with uniform τ)
// normalised by ‖θ‖_{2,k+1}^{k+1} = Σ_i ‖θ_i‖_2^{k+1}, ‖θ_i‖_2² = Σ_j ‖u_{i,j}‖² + ‖w_i‖² (Def. C.2).
#pragma once

#include <featurelab/types.hpp>

namespace featurelab::fourier_icl_pack {

struct TableMargins {
  double min_margin = 0;           // min over D_p of g
  double mean_weighted = 0;        // mean over D_p of g′
  double accuracy = 0;             // fraction of D_p with g > 0
  double norm_power = 0;           // ‖θ‖_{2,k+1}^{k+1}
  double normalized() const { return min_margin / norm_power; }
  double weighted_normalized() const { return mean_weighted / norm_power; }
};

// U: m×kp, W: m×p.
TableMargins table_margins(const featurelab::MatD& U, const featurelab::MatD& W, int k, int p);

}  // namespace featurelab::fourier_icl_pack
