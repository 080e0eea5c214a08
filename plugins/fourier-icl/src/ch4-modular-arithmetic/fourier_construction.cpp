#include "fourier_construction.hpp"

#include <cmath>

namespace featurelab::fourier_icl_pack {

Index theorem_width(int k, int p) { return (Index(1) << (2 * k - 2)) * (p - 1); }

double gamma_star(int k, int p) {
  const double kk = k;
  return 2 * std::tgamma(kk + 1) / (std::pow(2 * kk + 2, (kk + 1) / 2) * (p - 1) * std::pow(static_cast<double>(p), (kk - 1) / 2));
}

void max_margin_construction(int k, int p, MatD& U, MatD& W) {
  const Index m = theorem_width(k, p);
  U.setZero(m, static_cast<Index>(k) * p);
  W.setZero(m, p);
  const double two_pi = 2 * M_PI;
  Index i = 0;
  for (int zeta = 1; zeta <= (p - 1) / 2; ++zeta) {
    for (unsigned b = 0; b < (1u << (k + 1)); ++b) {
      const int ones = __builtin_popcount(b);
      if (ones % 2 != 0) continue;
      const double s_b = ones % 4 == 2 ? -1.0 : 1.0;
      // σ_1 = +1; bits of `signs` give σ_2 … σ_k (1 = −1).
      for (unsigned signs = 0; signs < (1u << (k - 1)); ++signs) {
        int sum_sigma = 1;
        for (int j = 1; j < k; ++j) sum_sigma += (signs >> (j - 1)) & 1u ? -1 : 1;
        const double sign = s_b * (((k - sum_sigma) / 2) % 2 ? -1.0 : 1.0);
        for (int j = 0; j < k; ++j) {
          const double sigma = j == 0 ? 1.0 : ((signs >> (j - 1)) & 1u ? -1.0 : 1.0);
          const bool use_sin = (b >> j) & 1u;
          for (int a = 0; a < p; ++a) {
            const double angle = two_pi * zeta * a / p;
            U(i, static_cast<Index>(j) * p + a) = sigma * (use_sin ? std::sin(angle) : std::cos(angle));
          }
        }
        const bool w_sin = (b >> k) & 1u;
        for (int c = 0; c < p; ++c) {
          const double angle = two_pi * zeta * c / p;
          W(i, c) = sign * (w_sin ? -std::sin(angle) : std::cos(angle));
        }
        ++i;
      }
    }
  }
}

}  // namespace featurelab::fourier_icl_pack
