// Products of small row-major matrices computed in vector registers, without packing: what a pack's
// step uses where a general GEMM spends its time packing panels and reading them back from L2 (inner
// dimensions of tens to a few hundred, a few hundred rows; bench/README.md, rounds 7 and 11).
//   times<false>(…)  Z  = X W     (rows×cols = rows×dim · dim×cols)
//   times<true>(…)   Z += X W
//   add_transpose_times(…)  ∇W += Xᵀ G  (dim×cols += dim×rows · rows×cols), the gradient of a weight
// `cols` must be a whole number of vector strips (kLanes values); each matrix has its own row stride.
// Z's tiles hold R rows × S strips of accumulators, each X element broadcast once per tile; ∇W's hold I
// inputs × S strips, summed over all rows in registers and stored once. Every output is one accumulator
// whose terms come in a fixed order (k, or the row, ascending) whatever the tiling and the thread
// count, so the bits depend on the operands alone.
#pragma once

#include <featurelab/register_tiles.hpp>

#include <utility>

namespace featurelab::tiled_products {

using register_tiles::kLanes;
using register_tiles::kManyRegisters;
using register_tiles::Strip;
using register_tiles::strip_at;

// Tiles sized to the vector registers (32 with AVX-512, 16 with AVX2): Z's tile holds kTileRows ×
// kTileStrips accumulators beside kTileStrips strips of W and one broadcast; ∇W's holds kTileInputs ×
// kUpdateStrips beside kUpdateStrips strips of G and one broadcast.
constexpr int kTileRows = kManyRegisters ? 6 : 3;
constexpr int kTileStrips = kManyRegisters ? 4 : 3;
constexpr int kTileInputs = kManyRegisters ? 10 : 5;
constexpr int kUpdateStrips = 2;

// Whether a product with `cols` output columns can run here (whole strips only).
constexpr bool fits_strips(Index cols) { return cols > 0 && cols % kLanes == 0; }

// cols rounded up to whole strips (a row stride for padded operands).
constexpr Index padded_width(Index cols) { return (cols + kLanes - 1) / kLanes * kLanes; }

// Z(r, strip s) (+)= Σ_k X(r, k) W(k, strip s) for R rows and S strips, k ascending.
template <bool Accumulate, int R, int S>
inline void product_tile(const Scalar* X, Index ldx, Index dim, const Scalar* W, Index ldw, Scalar* Z, Index ldz) {
  Strip acc[R][S];
  for (int r = 0; r < R; ++r) {
    for (int s = 0; s < S; ++s) {
      if constexpr (Accumulate) {
        acc[r][s] = strip_at(Z + r * ldz + s * kLanes);
      } else {
        acc[r][s].setZero();
      }
    }
  }
  for (Index k = 0; k < dim; ++k) {
    Strip w[S];
    for (int s = 0; s < S; ++s) w[s] = strip_at(W + k * ldw + s * kLanes);
    for (int r = 0; r < R; ++r) {
      const Scalar x = X[r * ldx + k];
      for (int s = 0; s < S; ++s) acc[r][s] += x * w[s];
    }
  }
  for (int r = 0; r < R; ++r) {
    for (int s = 0; s < S; ++s) Eigen::Map<Strip>(Z + r * ldz + s * kLanes) = acc[r][s];
  }
}

// R rows against every strip: whole tiles of kTileStrips, then the remaining strips in one tile.
template <bool Accumulate, int R>
inline void product_rows(const Scalar* X, Index ldx, Index dim, const Scalar* W, Index ldw, Scalar* Z, Index ldz, Index strips) {
  Index s = 0;
  for (; s + kTileStrips <= strips; s += kTileStrips) {
    product_tile<Accumulate, R, kTileStrips>(X, ldx, dim, W + s * kLanes, ldw, Z + s * kLanes, ldz);
  }
  const Scalar* Ws = W + s * kLanes;
  Scalar* Zs = Z + s * kLanes;
  switch (strips - s) {
    case 1: product_tile<Accumulate, R, 1>(X, ldx, dim, Ws, ldw, Zs, ldz); break;
    case 2: if constexpr (kTileStrips > 2) product_tile<Accumulate, R, 2>(X, ldx, dim, Ws, ldw, Zs, ldz); break;
    case 3: if constexpr (kTileStrips > 3) product_tile<Accumulate, R, 3>(X, ldx, dim, Ws, ldw, Zs, ldz); break;
    default: break;
  }
}

// The last rows < kTileRows in one tile of that many rows.
template <bool Accumulate, int... Rest>
inline void product_rest(int rows, const Scalar* X, Index ldx, Index dim, const Scalar* W, Index ldw, Scalar* Z, Index ldz,
                         Index strips, std::integer_sequence<int, Rest...>) {
  ((rows == Rest + 1 ? product_rows<Accumulate, Rest + 1>(X, ldx, dim, W, ldw, Z, ldz, strips) : void()), ...);
}

// Z (+)= X W: X rows×dim (row stride ldx), W dim×cols (ldw), Z rows×cols (ldz); fits_strips(cols).
template <bool Accumulate>
inline void times(const Scalar* X, Index ldx, Index rows, Index dim, const Scalar* W, Index ldw, Scalar* Z, Index ldz, Index cols) {
  const Index strips = cols / kLanes;
  Index r = 0;
  for (; r + kTileRows <= rows; r += kTileRows) {
    product_rows<Accumulate, kTileRows>(X + r * ldx, ldx, dim, W, ldw, Z + r * ldz, ldz, strips);
  }
  if (r < rows) {
    product_rest<Accumulate>(static_cast<int>(rows - r), X + r * ldx, ldx, dim, W, ldw, Z + r * ldz, ldz, strips,
                             std::make_integer_sequence<int, kTileRows - 1>{});
  }
}

// ∇W(k0 + i, strip s) += Σ_r X(r, k0 + i) G(r, strip s) for I inputs and S strips, r ascending, the sums
// held in registers over all rows and stored once.
template <int I, int S>
inline void update_tile(const Scalar* X, Index ldx, Index rows, const Scalar* G, Index ldg, Scalar* dW, Index lddw) {
  Strip acc[I][S];
  for (int i = 0; i < I; ++i) {
    for (int s = 0; s < S; ++s) acc[i][s] = strip_at(dW + i * lddw + s * kLanes);
  }
  for (Index r = 0; r < rows; ++r) {
    Strip g[S];
    for (int s = 0; s < S; ++s) g[s] = strip_at(G + r * ldg + s * kLanes);
    for (int i = 0; i < I; ++i) {
      const Scalar x = X[r * ldx + i];
      for (int s = 0; s < S; ++s) acc[i][s] += x * g[s];
    }
  }
  for (int i = 0; i < I; ++i) {
    for (int s = 0; s < S; ++s) Eigen::Map<Strip>(dW + i * lddw + s * kLanes) = acc[i][s];
  }
}

// S strips of ∇W over every input: whole tiles of kTileInputs, then the rest in one tile.
template <int S, int... Rest>
inline void update_rest(int inputs, const Scalar* X, Index ldx, Index rows, const Scalar* G, Index ldg, Scalar* dW, Index lddw,
                        std::integer_sequence<int, Rest...>) {
  ((inputs == Rest + 1 ? update_tile<Rest + 1, S>(X, ldx, rows, G, ldg, dW, lddw) : void()), ...);
}

template <int S>
inline void update_strips(const Scalar* X, Index ldx, Index rows, Index dim, const Scalar* G, Index ldg, Scalar* dW, Index lddw) {
  Index k = 0;
  for (; k + kTileInputs <= dim; k += kTileInputs) update_tile<kTileInputs, S>(X + k, ldx, rows, G, ldg, dW + k * lddw, lddw);
  if (k < dim) {
    update_rest<S>(static_cast<int>(dim - k), X + k, ldx, rows, G, ldg, dW + k * lddw, lddw,
                   std::make_integer_sequence<int, kTileInputs - 1>{});
  }
}

// ∇W += Xᵀ G: X rows×dim (ldx), G rows×cols (ldg), ∇W dim×cols (lddw); fits_strips(cols).
inline void add_transpose_times(const Scalar* X, Index ldx, Index rows, Index dim, const Scalar* G, Index ldg, Scalar* dW, Index lddw,
                                Index cols) {
  const Index strips = cols / kLanes;
  Index s = 0;
  for (; s + kUpdateStrips <= strips; s += kUpdateStrips) {
    update_strips<kUpdateStrips>(X, ldx, rows, dim, G + s * kLanes, ldg, dW + s * kLanes, lddw);
  }
  if (s < strips) update_strips<1>(X, ldx, rows, dim, G + s * kLanes, ldg, dW + s * kLanes, lddw);
}

}  // namespace featurelab::tiled_products
