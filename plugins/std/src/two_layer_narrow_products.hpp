// The two products of two-layer's blocked fused step when the first layer is narrow (Li et al.'s
// feature-averaging net: m = 10 hidden units, D = 3072 inputs, blocks of 32 rows of X):
//   Z = X Wᵀ   (rows×m = rows×D · D×m)    dot products of rows of X with rows of W
//   ∇W += Gᵀ X (m×D += m×rows · rows×D)   rank-`rows` update of a few rows of ∇W
// With m = 10 a general GEMM spends half its time packing X into its panel layout (each X element
// is used only 2m times a step), so these read X and W in place: both are row-major with unit stride
// along D, so a strip of kLanes consecutive inputs is one vector load. Each output's sum runs in an
// order fixed by D and the row index alone (lanes added in a fixed tree), whatever the thread count.
// On the AVX-512 machine of bench/README.md (round 5), one core, block shapes of feature averaging
// (`kernel_shape/*/narrow` rows): 146–152 GFLOP/s for Z and 177–182 for ∇W, against Eigen's 56–57 and 87–89.
#pragma once

#include <featurelab/register_tiles.hpp>

namespace featurelab::std_pack::narrow {

using register_tiles::kLanes;
using register_tiles::kManyRegisters;
using register_tiles::Strip;
using register_tiles::strip_at;
// Tiles sized to the vector registers (32 with AVX-512, 16 with AVX2): Z's tile holds kTileRows ×
// kTileUnits accumulators beside kTileUnits strips of W (5 × 5 measured 2× faster than 4 × 5 or 6 × 5); ∇W's holds kTileUnits × kUpdateStrips beside
// kUpdateStrips strips of X.
constexpr int kTileRows = kManyRegisters ? 5 : 2;
constexpr int kTileUnits = 5;
constexpr int kUpdateStrips = kManyRegisters ? 4 : 2;

// The lanes added in a fixed tree (halves, then quarters, ...).
inline Scalar lane_sum(const Strip& lanes) {
  Scalar v[kLanes];
  Eigen::Map<Strip>{v} = lanes;
  for (Index half = kLanes / 2; half > 0; half /= 2) {
    for (Index l = 0; l < half; ++l) v[l] += v[l + half];
  }
  return v[0];
}

// Z(r, j) = ⟨X row r, W row j⟩ for R rows and J units: R·J lane accumulators in registers, each
// X and W strip loaded once per tile.
template <int R, int J>
inline void dot_tile(const Scalar* X, Index ldx, const Scalar* W, Index ldw, Index dim, Scalar* Z, Index ldz) {
  Strip acc[R][J];
  for (int r = 0; r < R; ++r) {
    for (int j = 0; j < J; ++j) acc[r][j].setZero();
  }
  Index k0 = 0;
  for (; k0 + kLanes <= dim; k0 += kLanes) {
    Strip w[J];
    for (int j = 0; j < J; ++j) w[j] = strip_at(W + j * ldw + k0);
    for (int r = 0; r < R; ++r) {
      const Strip x = strip_at(X + r * ldx + k0);
      for (int j = 0; j < J; ++j) acc[r][j] += x * w[j];
    }
  }
  for (Index k = k0; k < dim; ++k) {  // the last, partial strip into the first lanes
    for (int r = 0; r < R; ++r) {
      for (int j = 0; j < J; ++j) acc[r][j][k - k0] += X[r * ldx + k] * W[j * ldw + k];
    }
  }
  for (int r = 0; r < R; ++r) {
    for (int j = 0; j < J; ++j) Z[r * ldz + j] = lane_sum(acc[r][j]);
  }
}

template <int R>
inline void dot_rows(const Scalar* X, Index ldx, const Scalar* W, Index width, Index dim, Scalar* Z) {
  Index j = 0;
  for (; j + kTileUnits <= width; j += kTileUnits) dot_tile<R, kTileUnits>(X, ldx, W + j * dim, dim, dim, Z + j, width);
  for (; j + 2 <= width; j += 2) dot_tile<R, 2>(X, ldx, W + j * dim, dim, dim, Z + j, width);
  for (; j < width; ++j) dot_tile<R, 1>(X, ldx, W + j * dim, dim, dim, Z + j, width);
}

// Z = X Wᵀ: X rows×D, W m×D, Z rows×m, all row-major and contiguous.
inline void times_transpose(const Scalar* X, Index rows, Index dim, const Scalar* W, Index width, Scalar* Z) {
  Index r = 0;
  for (; r + kTileRows <= rows; r += kTileRows) dot_rows<kTileRows>(X + r * dim, dim, W, width, dim, Z + r * width);
  for (; r + 2 <= rows; r += 2) dot_rows<2>(X + r * dim, dim, W, width, dim, Z + r * width);
  for (; r < rows; ++r) dot_rows<1>(X + r * dim, dim, W, width, dim, Z + r * width);
}

// dW(j, k0 .. k0 + S·kLanes) += Σ_r G(r, j) X(r, k0 ..) for J units: the strips' sums over all rows
// in registers (r in order), then added once.
template <int J, int S>
inline void update_tile(const Scalar* G, Index width, const Scalar* X, Index rows, Index dim, Index k0, Scalar* dW) {
  Strip acc[J][S];
  for (int j = 0; j < J; ++j) {
    for (int t = 0; t < S; ++t) acc[j][t].setZero();
  }
  for (Index r = 0; r < rows; ++r) {
    Strip x[S];
    for (int t = 0; t < S; ++t) x[t] = strip_at(X + r * dim + k0 + t * kLanes);
    for (int j = 0; j < J; ++j) {
      const Scalar g = G[r * width + j];
      for (int t = 0; t < S; ++t) acc[j][t] += g * x[t];
    }
  }
  for (int j = 0; j < J; ++j) {
    for (int t = 0; t < S; ++t) Eigen::Map<Strip>(dW + j * dim + k0 + t * kLanes) += acc[j][t];
  }
}

template <int J>
inline void update_units(const Scalar* G, Index width, const Scalar* X, Index rows, Index dim, Scalar* dW) {
  constexpr Index kStrip = kUpdateStrips * kLanes;
  Index k0 = 0;
  for (; k0 + kStrip <= dim; k0 += kStrip) update_tile<J, kUpdateStrips>(G, width, X, rows, dim, k0, dW);
  for (; k0 < dim; ++k0) {  // the last inputs one at a time
    for (Index r = 0; r < rows; ++r) {
      for (int j = 0; j < J; ++j) dW[j * dim + k0] += G[r * width + j] * X[r * dim + k0];
    }
  }
}

// dW += Gᵀ X: G rows×m, X rows×D, dW m×D, all row-major and contiguous.
inline void add_transpose_times(const Scalar* G, Index rows, Index width, const Scalar* X, Index dim, Scalar* dW) {
  Index j = 0;
  for (; j + kTileUnits <= width; j += kTileUnits) update_units<kTileUnits>(G + j, width, X, rows, dim, dW + j * dim);
  for (; j + 2 <= width; j += 2) update_units<2>(G + j, width, X, rows, dim, dW + j * dim);
  for (; j < width; ++j) update_units<1>(G + j, width, X, rows, dim, dW + j * dim);
}

}  // namespace featurelab::std_pack::narrow
