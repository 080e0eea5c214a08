// The two products of patch-two-layer's fused step, at the patch network's shapes (Chidambaram et al.,
// Def. 4.2: d = 20 inputs per patch, k·m = 100 filters, blocks of a few hundred patch rows):
//   Z = X Wᵀ    (rows×km = rows×d · d×km)     every patch against every filter
//   ∇Wᵀ += Xᵀ G (d×km += d×rows · rows×km)    rank-`rows` update of the filters' gradient
// With an inner dimension of d = 20 a general GEMM spends a fifth of its time packing panels and runs
// at 60–80 % of its large-matrix speed. Both products keep W transposed and padded (d × ldw, ldw = km
// rounded up to whole vector strips, the padding 0) and run as the SDK's register-tiled products
// (featurelab/tiled_products.hpp), about twice as fast as Eigen's at these shapes (bench/README.md,
// round 7).
#pragma once

#include <featurelab/tiled_products.hpp>

namespace featurelab::midpoint_mixup_pack::patch {

// km rounded up to whole strips: the row stride of Wᵀ, Z, G and ∇Wᵀ.
constexpr Index padded_width(Index width) { return tiled_products::padded_width(width); }

// Z = X Wᵀ: X rows×dim (contiguous), Wt dim×ldw, Z rows×ldw; Z's padding columns come out 0.
inline void times_transpose(const Scalar* X, Index rows, Index dim, const Scalar* Wt, Index ldw, Scalar* Z) {
  tiled_products::times<false>(X, dim, rows, dim, Wt, ldw, Z, ldw, ldw);
}

// ∇Wᵀ += Xᵀ G: X rows×dim (contiguous), G rows×ldw, dWt dim×ldw.
inline void add_transpose_times(const Scalar* X, Index rows, Index dim, const Scalar* G, Index ldw, Scalar* dWt) {
  tiled_products::add_transpose_times(X, dim, rows, dim, G, ldw, dWt, ldw, ldw);
}

}  // namespace featurelab::midpoint_mixup_pack::patch
