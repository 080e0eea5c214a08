// The table D_p of k-input modular addition: all p^k tuples (a_1, …, a_k) ∈ Z_p^k, never stored; tuple t's
// summands are its base-p digits (modular-sum's splits and normalized-margin's full-table margins enumerate it).
#pragma once

#include <featurelab/types.hpp>

namespace featurelab::fourier_icl_pack {

// p^k, or −1 when it exceeds `limit`.
featurelab::Index table_size(int k, int p, featurelab::Index limit);
// The summands of tuple t (base-p digits, a_1 least significant).
void digits(featurelab::Index t, int k, int p, int* a);
bool is_prime(int p);

}  // namespace featurelab::fourier_icl_pack
