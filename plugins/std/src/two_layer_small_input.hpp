// The two-layer step for few inputs and one output (Frei, Chatterji & Bartlett 2022, Figure 1: D = 2,
// m = 500, n = 5000), per row and in registers.
//
// At D = 2 a hidden unit costs a handful of flops a step (two multiply-adds for z, φ, φ', three for
// the gradient), so any n×m array written and read back costs more than the arithmetic: the blocked
// passes of the recompute mode spent their time storing Z, H, D and G. Here nothing n×m exists:
//   pass 1, per row i:    f_i = Σ_j a_j φ(z_ij), z_ij = ⟨w_j, x_i⟩ + b_j, over strips of hidden units
//                         whose z stay in vector registers;
//   the loss, per block:  d_i = ∂(mean loss)/∂f_i (SeparableLoss::row_block);
//   pass 2, per 4 rows:   z_ij again, g_ij = d_i a_j φ'(z_ij), and ∇w_jk += Σ_i g_ij x_ik,
//                         ∇b_j += Σ_i g_ij, ∇a_j += Σ_i d_i φ(z_ij) into a chunk's accumulators
//                         (D+2)×m, a few KB in L1.
// Every sum runs in an order fixed by the row index and the strip (kStrip lanes, added in a fixed
// tree), and each chunk of rows (featurelab/threads.hpp) has its own accumulators, added in chunk
// order: the bits do not depend on the thread count.
#pragma once

#include <featurelab/activation.hpp>
#include <featurelab/types.hpp>

#include <algorithm>

namespace featurelab::std_pack::small_input {

// Hidden units per strip: one row's z of a strip fit in registers (4 AVX2 or 2 AVX-512 vectors of float).
constexpr Index kStrip = 32;
// Rows whose gradients are summed in registers before touching the accumulators (pass 2).
constexpr int kTileRows = 4;

// The first layer, transposed so that a strip of units is contiguous for every input k, and padded to
// whole strips with units whose w, b and a are 0: each adds exactly 0 to f and to nothing else.
struct Layer {
  const Scalar* wt;  // D×m row-major: wt[k·m + j] = W_jk
  const Scalar* b;   // m (zeros without a bias)
  const Scalar* a;   // m: the second layer's only row
  Index dim, width;  // width: a multiple of kStrip
};

inline Index padded_width(Index width) { return (width + kStrip - 1) / kStrip * kStrip; }

// A chunk's gradient accumulators, (D+2)×m row-major: rows 0..D−1 ∇Wᵀ, row D ∇b, row D+1 ∇a.
struct Accumulators {
  Scalar* g;
  bool w, b, a;  // which blocks train
};

// Inputs known at compile time (Dim > 0: the loops over k unroll and a strip's gradient sums stay in
// registers), or Dim = 0: layer.dim, at most kMaxDim.
constexpr Index kMaxDim = 8;
template <int Dim>
inline Index dim_of(const Layer& layer) {
  if constexpr (Dim > 0) {
    return Dim;
  } else {
    return layer.dim;
  }
}

// z of units [j0, j0 + kStrip) for one row x: b_j + Σ_k x_k w_jk, k in order.
template <int Dim>
inline void strip_preactivations(const Layer& layer, const Scalar* x, Index j0, Scalar* z) {
  for (Index l = 0; l < kStrip; ++l) z[l] = layer.b[j0 + l];
  for (Index k = 0; k < dim_of<Dim>(layer); ++k) {
    const Scalar xk = x[k];
    const Scalar* wk = layer.wt + k * layer.width + j0;
    for (Index l = 0; l < kStrip; ++l) z[l] += xk * wk[l];
  }
}

// Pass 1: f = Σ_j a_j φ(z_j) for one row, in kStrip lane sums added in a fixed tree.
template <int Dim, class Kernel>
Scalar row_output(const Kernel& phi, const Layer& layer, const Scalar* x) {
  Scalar lanes[kStrip] = {};
  for (Index j0 = 0; j0 < layer.width; j0 += kStrip) {
    Scalar z[kStrip];
    strip_preactivations<Dim>(layer, x, j0, z);
    for (Index l = 0; l < kStrip; ++l) lanes[l] += layer.a[j0 + l] * phi(z[l]).value;
  }
#pragma GCC unroll 8
  for (Index half = kStrip / 2; half > 0; half /= 2) {
    for (Index l = 0; l < half; ++l) lanes[l] += lanes[l + half];
  }
  return lanes[0];
}

// Pass 2 over Rows rows (x[r], their ∂loss/∂f d[r]) for units [j0, j0 + kStrip): the rows'
// contributions summed in row order, then added once to the accumulators.
template <int Dim, int Rows, class Kernel>
inline void strip_gradient(const Kernel& phi, const Layer& layer, const Scalar* const* x, const Scalar* d, Index j0,
                           const Accumulators& acc) {
  const Index dim = dim_of<Dim>(layer);
  Scalar gw[Dim > 0 ? Dim : kMaxDim][kStrip], gb[kStrip], ga[kStrip];
#pragma GCC unroll 8
  for (int r = 0; r < Rows; ++r) {
    Scalar z[kStrip];
    strip_preactivations<Dim>(layer, x[r], j0, z);
    for (Index l = 0; l < kStrip; ++l) {
      const auto v = phi(z[l]);
      const Scalar g = d[r] * layer.a[j0 + l] * v.slope, h = d[r] * v.value;
      gb[l] = r == 0 ? g : gb[l] + g;
      ga[l] = r == 0 ? h : ga[l] + h;
      for (Index k = 0; k < dim; ++k) gw[k][l] = r == 0 ? g * x[r][k] : gw[k][l] + g * x[r][k];
    }
  }
  const Index m = layer.width;
  if (acc.w) {
    for (Index k = 0; k < dim; ++k) {
      Scalar* to = acc.g + k * m + j0;
      for (Index l = 0; l < kStrip; ++l) to[l] += gw[k][l];
    }
  }
  if (acc.b) {
    Scalar* to = acc.g + dim * m + j0;
    for (Index l = 0; l < kStrip; ++l) to[l] += gb[l];
  }
  if (acc.a) {
    Scalar* to = acc.g + (dim + 1) * m + j0;
    for (Index l = 0; l < kStrip; ++l) to[l] += ga[l];
  }
}

// Pass 2 for rows [0, rows) of a block: tiles of kTileRows, the rest one by one.
template <int Dim, class Kernel>
void block_gradient(const Kernel& phi, const Layer& layer, const Scalar* X, Index rows, const Scalar* d,
                    const Accumulators& acc) {
  const Index dim = dim_of<Dim>(layer);
  Index r = 0;
  for (; r + kTileRows <= rows; r += kTileRows) {
    const Scalar* x[kTileRows];
    for (int t = 0; t < kTileRows; ++t) x[t] = X + (r + t) * dim;
    for (Index j0 = 0; j0 < layer.width; j0 += kStrip) strip_gradient<Dim, kTileRows>(phi, layer, x, d + r, j0, acc);
  }
  for (; r < rows; ++r) {
    const Scalar* x[1] = {X + r * dim};
    for (Index j0 = 0; j0 < layer.width; j0 += kStrip) strip_gradient<Dim, 1>(phi, layer, x, d + r, j0, acc);
  }
}

}  // namespace featurelab::std_pack::small_input
