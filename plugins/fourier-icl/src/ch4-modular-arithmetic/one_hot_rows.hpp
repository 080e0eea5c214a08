// The one-hot rows of poly-one-hidden-layer (Shi 2024 Eq. 4.2), one row of the batch at a time: on x = (e_{a_1}, …,
// e_{a_k}) the pre-activation ⟨U_i, x⟩ is u_{i,1}[a_1] + … + u_{i,k}[a_k], the sum of k rows of Uᵀ (kp×m), and
// ∇Uᵀ's rows a_j collect dZ's rows. Each neuron i is one lane: z, z^{k−1} and z^k stay in registers (tiles of
// kLanes neurons), where the whole-matrix form took a pass over n×m values per power. A lane's operations, and their
// order, are the same in a full tile and in the tail, so the tile width changes no bits.
//   u:   the k rows of Uᵀ the row selects (Uᵀ[j p + a_j], j = 1…k), m values each
//   wt:  Wᵀ (p×m, row stride `stride`); d: the row's p output gradients
// Rows of Uᵀ, Wᵀ and their gradients are `stride` ≥ m values apart, an odd number of cache lines (row_stride): at
// m = 1024 whole 4 KB rows put every load and store of a tile at the same address modulo 4096, and the loads waited
// on the stores they only seemed to depend on (the step ran 1.6× slower).
#pragma once

#include <featurelab/types.hpp>

#include <algorithm>

namespace featurelab::fourier_icl_pack::one_hot_rows {

constexpr Index kLanes = 16;  // one AVX-512 register of floats

// The row stride for m values: m rounded up to whole 64-byte lines, plus one line when that count is even.
inline Index row_stride(Index m) {
  constexpr Index line = 64 / static_cast<Index>(sizeof(Scalar));
  const Index lines = (m + line - 1) / line;
  return (lines % 2 == 0 ? lines + 1 : lines) * line;
}

// Fixed-size Eigen arrays, so a tile is explicit SIMD (the stores into ∇Uᵀ could alias the loads for a compiler).
template <Index L>
using Tile = Eigen::Array<Scalar, L, 1>;
template <Index L>
inline Eigen::Map<const Tile<L>> in(const Scalar* at) { return Eigen::Map<const Tile<L>>(at); }
template <Index L>
inline Eigen::Map<Tile<L>> out(Scalar* at) { return Eigen::Map<Tile<L>>(at); }

// z^{k−1} and h = z^k over neurons [i, i + L): z = u_1 + … + u_k in that order (the product's order of its nonzero
// terms), then z^{k−1} = z·z·…·z and z^k = z^{k−1}·z (the whole-matrix powers' order).
template <int K, Index L>
inline void powers_tile(const Scalar* const* u, Index i, Tile<L>& zk1, Tile<L>& h) {
  Tile<L> z = in<L>(u[0] + i);
  for (int j = 1; j < K; ++j) z += in<L>(u[j] + i);
  if constexpr (K == 1) {
    zk1.setOnes();
    h = z;
  } else {
    zk1 = z;
    for (int e = 2; e < K; ++e) zk1 *= z;
    h = zk1 * z;
  }
}

// Forward: h (m values) = the row's activations z^k.
template <int K>
void forward_row(const Scalar* const* u, Index m, Scalar* h) {
  Index i = 0;
  for (; i + kLanes <= m; i += kLanes) {
    Tile<kLanes> zk1, hi;
    powers_tile<K, kLanes>(u, i, zk1, hi);
    out<kLanes>(h + i) = hi;
  }
  for (; i < m; ++i) {
    Tile<1> zk1, hi;
    powers_tile<K, 1>(u, i, zk1, hi);
    h[i] = hi[0];
  }
}

// Backward over neurons [i, i + L): dz = k z^{k−1} ⊙ Σ_c d_c w[c] is added to the k rows gu[j] of ∇Uᵀ, and d_c z^k
// to row c of ∇Wᵀ (p×m).
template <int K, Index L>
inline void backward_tile(const Scalar* const* u, const Scalar* wt, const Scalar* d, Index p, Index stride, Index i,
                          Scalar* const* gu, Scalar* gwt) {
  Tile<L> zk1, h;
  powers_tile<K, L>(u, i, zk1, h);
  Tile<L> dz = d[0] * in<L>(wt + i);
  for (Index c = 1; c < p; ++c) dz += d[c] * in<L>(wt + c * stride + i);
  dz = zk1 * (dz * Scalar(K));
  for (int j = 0; j < K; ++j) out<L>(gu[j] + i) += dz;
  for (Index c = 0; c < p; ++c) out<L>(gwt + c * stride + i) += d[c] * h;
}

// Backward over the rows [0, rows) of a chunk: hot (rows×K) the rows' columns of X, d (rows×p, row stride
// d_stride) their output gradients, ut/gut (kp×m) and wt/gwt (p×m) row stride `stride`. Neurons outside, rows inside:
// a block of kBlock neurons of Uᵀ, Wᵀ and their gradients (25 KB at k = p = 5) stays in L1 while every row passes,
// where a whole row's (240 KB) did not. Each neuron still sums the rows in their order: the same bits as row by row.
constexpr Index kBlock = 4 * kLanes;

template <int K>
void backward_rows(const Scalar* ut, const Scalar* wt, Index m, Index stride, Index p, const Index* hot, const Scalar* d,
                   Index d_stride, Index rows, Scalar* gut, Scalar* gwt) {
  const Scalar* u[K];
  Scalar* gu[K];
  for (Index i0 = 0; i0 < m; i0 += kBlock) {
    const Index i1 = std::min(m, i0 + kBlock);
    for (Index r = 0; r < rows; ++r) {
      for (int j = 0; j < K; ++j) {
        u[j] = ut + hot[r * K + j] * stride;
        gu[j] = gut + hot[r * K + j] * stride;
      }
      const Scalar* dr = d + r * d_stride;
      Index i = i0;
      for (; i + kLanes <= i1; i += kLanes) backward_tile<K, kLanes>(u, wt, dr, p, stride, i, gu, gwt);
      for (; i < i1; ++i) backward_tile<K, 1>(u, wt, dr, p, stride, i, gu, gwt);
    }
  }
}

// The row functions for k = 1…8 (the model's bound), chosen once per pass.
using ForwardRow = void (*)(const Scalar* const*, Index, Scalar*);
using BackwardRows = void (*)(const Scalar*, const Scalar*, Index, Index, Index, const Index*, const Scalar*, Index, Index,
                              Scalar*, Scalar*);

template <int... K>
constexpr ForwardRow forward_rows[] = {forward_row<K>...};
template <int... K>
constexpr BackwardRows backward_functions[] = {backward_rows<K>...};

inline ForwardRow forward_for(int k) { return forward_rows<1, 2, 3, 4, 5, 6, 7, 8>[k - 1]; }
inline BackwardRows backward_for(int k) { return backward_functions<1, 2, 3, 4, 5, 6, 7, 8>[k - 1]; }

}  // namespace featurelab::fourier_icl_pack::one_hot_rows
