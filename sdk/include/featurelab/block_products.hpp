// Products of attention's per-(sample, head) blocks (T×T scores, T×a values: 4×4 and 4×16 at fourier-icl's
// k = 2 arm, thousands a step) without Eigen's packing, and with the same bits as Eigen's product.
//   times<false>(Z, L, R)   Z  = L R    (m×n = m×depth · depth×n; L and R may be transposed views)
//   times<true>(Z, L, R)    Z += L R
// A shape whose summation order is not reproduced here (reproduces() is false) runs Eigen's product. Why
// reproduce it: packing dominates Eigen's time at these shapes (bench/README.md, round 21), yet a different
// order would change every run of the pipelines that use attention.
//
// The order (Eigen 3.4's general_block_panel kernel, which computes a row-major Z as Zᵀ = Rᵀ Lᵀ):
// - Z's columns are the kernel's rows. Fewer than two registers' worth, a whole number of quarter registers,
//   run in its one-register, half and quarter paths, where
// - every group of 4 of Z's rows sums each entry in two accumulators: even k in one, odd k in the other, up to
//   the last whole 8 of depth; then their sum; then the rest of k ascending. Z's last rows beyond a multiple of
//   4 sum in one accumulator, k ascending.
// - Each term is one fused multiply-add where the vector unit has one. The sum s lands as Z + s (Z = 0 for =).
// Products whose rows + columns + depth fall under Eigen's threshold for its coefficient-wise product, and
// vectors (one row or column), go elsewhere in Eigen: not reproduced. tests/block_products_test.cpp checks the bits
// against Eigen's product at every accepted shape up to 32 × 28 × 64, and fails if an Eigen update moves them.
#pragma once

#include <featurelab/types.hpp>

#include <cmath>

namespace featurelab::block_products {

constexpr Index kPacket = Eigen::internal::packet_traits<Scalar>::size;
constexpr Index kMaxColumns = 2 * kPacket - 1;  // one register, a half and a quarter at most
constexpr Index kMaxDepth = 64;                 // one depth block in Eigen's blocking
constexpr Index kScratch = kMaxDepth * kMaxColumns;

// Whether Z (rows × cols) = L (rows × depth) · R (depth × cols) is a shape whose order is reproduced here.
constexpr bool reproduces(Index rows, Index cols, Index depth) {
#ifdef EIGEN_VECTORIZE
  return kPacket >= 4 && rows > 1 && cols > 1 && cols % 4 == 0 && cols <= kMaxColumns && depth > 0 &&
         depth <= kMaxDepth && rows + cols + depth >= EIGEN_GEMM_TO_COEFFBASED_THRESHOLD;
#else
  (void)rows, (void)cols, (void)depth;
  return false;
#endif
}

namespace detail {

// a·b + c as Eigen's pmadd computes it: fused where the vector unit fuses.
inline Scalar madd(Scalar a, Scalar b, Scalar c) {
#ifdef EIGEN_VECTORIZE_FMA
  return std::fma(a, b, c);
#else
  return a * b + c;
#endif
}

// Z's rows [first, last) from L and R (R copied row-major, depth × N, into `r`). N: the column count, fixed
// where it is one of the common ones so that each k is a few vector instructions; 0: `cols` at run time.
template <bool Accumulate, bool Paired, int N, class Z, class L>
void rows_times(Z& z, const L& l, const Scalar* r, Index cols_at_run_time, Index depth, Index first, Index last) {
  const Index cols = N > 0 ? N : cols_at_run_time;
  const Index paired_depth = Paired ? depth / 8 * 8 : 0;
  for (Index i = first; i < last; ++i) {
    Scalar even[kMaxColumns] = {}, odd[kMaxColumns] = {};
    for (Index k = 0; k < paired_depth; k += 2) {
      const Scalar a0 = l(i, k), a1 = l(i, k + 1);
      for (Index j = 0; j < cols; ++j) even[j] = madd(a0, r[k * cols + j], even[j]);
      for (Index j = 0; j < cols; ++j) odd[j] = madd(a1, r[(k + 1) * cols + j], odd[j]);
    }
    if constexpr (Paired) {
      for (Index j = 0; j < cols; ++j) even[j] += odd[j];
    }
    for (Index k = paired_depth; k < depth; ++k) {
      const Scalar a = l(i, k);
      for (Index j = 0; j < cols; ++j) even[j] = madd(a, r[k * cols + j], even[j]);
    }
    for (Index j = 0; j < cols; ++j) z(i, j) = (Accumulate ? z(i, j) : Scalar(0)) + even[j];
  }
}

template <bool Accumulate, int N, class Z, class L>
void all_rows(Z& z, const L& l, const Scalar* r, Index cols, Index depth) {
  const Index rows = z.rows(), grouped = rows / 4 * 4;
  rows_times<Accumulate, true, N>(z, l, r, cols, depth, 0, grouped);
  rows_times<Accumulate, false, N>(z, l, r, cols, depth, grouped, rows);
}

}  // namespace detail

template <bool Accumulate, class Z, class L, class R>
void times(Z&& z, const L& l, const R& r) {
  const Index rows = l.rows(), cols = r.cols(), depth = l.cols();
  if constexpr (!Accumulate) z.resize(rows, cols);  // a Mat takes the product's shape, as with Eigen's =; a block keeps its own
  if (!reproduces(rows, cols, depth)) {
    if constexpr (Accumulate) {
      z.noalias() += l * r;
    } else {
      z.noalias() = l * r;
    }
    return;
  }
  Scalar packed[kScratch];
  Eigen::Map<Eigen::Matrix<Scalar, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>>(packed, depth, cols) = r;
  if (cols == 4) {
    detail::all_rows<Accumulate, 4>(z, l, packed, cols, depth);
  } else if (cols == 8 && 8 <= kMaxColumns) {
    detail::all_rows<Accumulate, (8 <= kMaxColumns ? 8 : 0)>(z, l, packed, cols, depth);
  } else if (cols == 16 && 16 <= kMaxColumns) {
    detail::all_rows<Accumulate, (16 <= kMaxColumns ? 16 : 0)>(z, l, packed, cols, depth);
  } else {
    detail::all_rows<Accumulate, 0>(z, l, packed, cols, depth);
  }
}

}  // namespace featurelab::block_products
