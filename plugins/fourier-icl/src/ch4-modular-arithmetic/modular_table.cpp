#include "modular_table.hpp"

namespace featurelab::fourier_icl_pack {

bool is_prime(int p) {
  if (p < 2) return false;
  for (int q = 2; q * q <= p; ++q) {
    if (p % q == 0) return false;
  }
  return true;
}

Index table_size(int k, int p, Index limit) {
  Index n = 1;
  for (int j = 0; j < k; ++j) {
    if (n > limit / p) return -1;
    n *= p;
  }
  return n;
}

void digits(Index t, int k, int p, int* a) {
  for (int j = 0; j < k; ++j) {
    a[j] = static_cast<int>(t % p);
    t /= p;
  }
}

}  // namespace featurelab::fourier_icl_pack
