// The two products of patch-two-layer's fused step, at the patch network's shapes (Chidambaram et al.,
// Def. 4.2: d = 20 inputs per patch, k·m = 100 filters, blocks of a few hundred patch rows):
//   Z = X Wᵀ    (rows×km = rows×d · d×km)     every patch against every filter
//   ∇Wᵀ += Xᵀ G (d×km += d×rows · rows×km)    rank-`rows` update of the filters' gradient
// With an inner dimension of d = 20 a general GEMM spends a fifth of its time packing panels and runs
// at 60–80 % of its large-matrix speed. Here both products keep W transposed and padded (d × ldw, ldw
// = km rounded up to whole vector strips, the padding 0), so a strip of filters is one vector load:
// Z's tiles hold R rows × S strips of accumulators, each X element broadcast once per tile; ∇Wᵀ's hold
// I inputs × S strips, summed over all rows in order. Each output's sum runs in an order fixed by d
// and its row alone (one accumulator, k or r ascending), whatever the thread count.
// On the AVX-512 machine of bench/README.md (round 7), one core, at the step's block shapes
// (`kernel_shape/*/patch` rows) these run about twice as fast as Eigen's product.
#pragma once

#include <featurelab/register_tiles.hpp>

#include <utility>

namespace featurelab::midpoint_mixup_pack::patch {

using register_tiles::kLanes;
using register_tiles::kManyRegisters;
using register_tiles::Strip;
using register_tiles::strip_at;
// Tiles sized to the vector registers (32 with AVX-512, 16 with AVX2): Z's tile holds kTileRows ×
// kTileStrips accumulators beside kTileStrips strips of Wᵀ and one broadcast; ∇Wᵀ's holds kTileInputs ×
// kUpdateStrips beside kUpdateStrips strips of G and one broadcast.
constexpr int kTileRows = kManyRegisters ? 6 : 3;
constexpr int kTileStrips = kManyRegisters ? 4 : 3;
constexpr int kTileInputs = kManyRegisters ? 10 : 5;
constexpr int kUpdateStrips = 2;

// km rounded up to whole strips: the row stride of Wᵀ, Z, G and ∇Wᵀ.
constexpr Index padded_width(Index width) { return (width + kLanes - 1) / kLanes * kLanes; }

// Z(r, strip s) = Σ_k X(r, k) Wᵀ(k, strip s) for R rows and S strips, k ascending.
template <int R, int S>
inline void product_tile(const Scalar* X, Index dim, const Scalar* Wt, Index ldw, Scalar* Z) {
  Strip acc[R][S];
  for (int r = 0; r < R; ++r) {
    for (int s = 0; s < S; ++s) acc[r][s].setZero();
  }
  for (Index k = 0; k < dim; ++k) {
    Strip w[S];
    for (int s = 0; s < S; ++s) w[s] = strip_at(Wt + k * ldw + s * kLanes);
    for (int r = 0; r < R; ++r) {
      const Scalar x = X[r * dim + k];
      for (int s = 0; s < S; ++s) acc[r][s] += x * w[s];
    }
  }
  for (int r = 0; r < R; ++r) {
    for (int s = 0; s < S; ++s) Eigen::Map<Strip>(Z + r * ldw + s * kLanes) = acc[r][s];
  }
}

// R rows against every strip: whole tiles of kTileStrips, then the remaining strips in one tile.
template <int R>
inline void product_rows(const Scalar* X, Index dim, const Scalar* Wt, Index ldw, Scalar* Z) {
  const Index strips = ldw / kLanes;
  Index s = 0;
  for (; s + kTileStrips <= strips; s += kTileStrips) product_tile<R, kTileStrips>(X, dim, Wt + s * kLanes, ldw, Z + s * kLanes);
  const Scalar* Wr = Wt + s * kLanes;
  Scalar* Zr = Z + s * kLanes;
  switch (strips - s) {
    case 1: product_tile<R, 1>(X, dim, Wr, ldw, Zr); break;
    case 2: if constexpr (kTileStrips > 2) product_tile<R, 2>(X, dim, Wr, ldw, Zr); break;
    case 3: if constexpr (kTileStrips > 3) product_tile<R, 3>(X, dim, Wr, ldw, Zr); break;
    default: break;
  }
}

// Z = X Wᵀ: X rows×dim (contiguous), Wt dim×ldw, Z rows×ldw; Z's padding columns come out 0.
inline void times_transpose(const Scalar* X, Index rows, Index dim, const Scalar* Wt, Index ldw, Scalar* Z) {
  Index r = 0;
  for (; r + kTileRows <= rows; r += kTileRows) product_rows<kTileRows>(X + r * dim, dim, Wt, ldw, Z + r * ldw);
  for (; r < rows; ++r) product_rows<1>(X + r * dim, dim, Wt, ldw, Z + r * ldw);
}

// ∇Wᵀ(k0 + i, strip s) += Σ_r X(r, k0 + i) G(r, strip s) for I inputs and S strips, r ascending, the
// sums held in registers over all rows and stored once.
template <int I, int S>
inline void update_tile(const Scalar* X, Index rows, Index dim, const Scalar* G, Index ldw, Scalar* dWt) {
  Strip acc[I][S];
  for (int i = 0; i < I; ++i) {
    for (int s = 0; s < S; ++s) acc[i][s] = strip_at(dWt + i * ldw + s * kLanes);
  }
  for (Index r = 0; r < rows; ++r) {
    Strip g[S];
    for (int s = 0; s < S; ++s) g[s] = strip_at(G + r * ldw + s * kLanes);
    for (int i = 0; i < I; ++i) {
      const Scalar x = X[r * dim + i];
      for (int s = 0; s < S; ++s) acc[i][s] += x * g[s];
    }
  }
  for (int i = 0; i < I; ++i) {
    for (int s = 0; s < S; ++s) Eigen::Map<Strip>(dWt + i * ldw + s * kLanes) = acc[i][s];
  }
}

// S strips of ∇Wᵀ over every input: whole tiles of kTileInputs, then the rest in one tile.
template <int S, int... Rest>
inline void update_rest(int inputs, const Scalar* X, Index rows, Index dim, const Scalar* G, Index ldw, Scalar* dWt,
                        std::integer_sequence<int, Rest...>) {
  // inputs < kTileInputs: the one instantiation with I = inputs.
  ((inputs == Rest + 1 ? update_tile<Rest + 1, S>(X, rows, dim, G, ldw, dWt) : void()), ...);
}

template <int S>
inline void update_strips(const Scalar* X, Index rows, Index dim, const Scalar* G, Index ldw, Scalar* dWt) {
  Index k = 0;
  for (; k + kTileInputs <= dim; k += kTileInputs) update_tile<kTileInputs, S>(X + k, rows, dim, G, ldw, dWt + k * ldw);
  if (k < dim) {
    update_rest<S>(static_cast<int>(dim - k), X + k, rows, dim, G, ldw, dWt + k * ldw,
                   std::make_integer_sequence<int, kTileInputs - 1>{});
  }
}

// ∇Wᵀ += Xᵀ G: X rows×dim (contiguous), G rows×ldw, dWt dim×ldw.
inline void add_transpose_times(const Scalar* X, Index rows, Index dim, const Scalar* G, Index ldw, Scalar* dWt) {
  const Index strips = ldw / kLanes;
  Index s = 0;
  for (; s + kUpdateStrips <= strips; s += kUpdateStrips) {
    update_strips<kUpdateStrips>(X, rows, dim, G + s * kLanes, ldw, dWt + s * kLanes);
  }
  if (s < strips) update_strips<1>(X, rows, dim, G + s * kLanes, ldw, dWt + s * kLanes);
}

}  // namespace featurelab::midpoint_mixup_pack::patch
