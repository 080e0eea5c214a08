// The chapter's maximum-margin network for k-input modular addition (Shi 2024 Lemmas C.16–C.18, Thm. 4.9),
// in double precision. With cos_ζ(x) = cos(2πζx/p), sin_ζ likewise, and a_{k+1} = −c:
//   for every frequency ζ = 1 … (p−1)/2 and every b ∈ {0,1}^{k+1} with an even number of ones
//   (s_b = −1 when popcount(b) ≡ 2 mod 4, else +1), with T_j = cos_ζ or sin_ζ as b_j is 0 or 1 and
//   T_w(c) = cos_ζ(c) or −sin_ζ(c) as b_{k+1} is 0 or 1, and every σ ∈ {+1} × {±1}^{k−1}:
//       neuron u_j = σ_j T_j (j = 1 … k),   w = s_b (−1)^{(k − Σσ)/2} T_w.
// That is 2^{2k−2}(p−1) neurons of equal norm ‖θ_i‖² = (k+1)p/2, and by the identity
// 2^k k! Π_j a_j = Σ_{c∈{±1}^k} (−1)^{(k−Σc)/2} (Σ_j c_j a_j)^k (Lemma C.16) the network computes
//   f[c] = 2^{k−1} k! Σ_ζ cos_ζ(Σ_j a_j − c):   2^{k−1}k!(p−1)/2 at c = y and −2^{k−1}k!/2 at every c ≠ y
// (the chapter says "0 otherwise"; the value is constant over the wrong classes, which is what matters), so its
// normalised margin is exactly γ*(k, p) = 2·k! / [(2k+2)^{(k+1)/2} (p−1) p^{(k−1)/2}].
#pragma once

#include <featurelab/types.hpp>

namespace featurelab::fourier_icl_pack {

// 2^{2k−2}(p−1): the theorem's width, and the construction's.
featurelab::Index theorem_width(int k, int p);

// U (m×kp: row i = (u_{i,1}, …, u_{i,k})) and W (m×p) of the construction.
void max_margin_construction(int k, int p, featurelab::MatD& U, featurelab::MatD& W);

// γ*(k, p) of Thm. 4.9 / C.22.
double gamma_star(int k, int p);

}  // namespace featurelab::fourier_icl_pack
