// Matrix products on the job's threads, with the same bits on any number of them.
//
// Eigen's own multi-threaded product splits its work by the thread count, so its blocking and
// rounding change with it (threads.hpp). These split the output instead, into blocks fixed by the
// product's shape alone: each block is one single-threaded Eigen product, whichever thread runs it,
// and no sum over the inner dimension is ever split. One thread runs the same blocks in order.
//
//   parallel_product_rows(C, A, B):  C = A·B, by blocks of C's rows    (A's rows split: Z = X·Wᵀ)
//   parallel_product_cols(C, A, B):  C = A·B, by blocks of C's columns (B's columns split: ∇W = Gᵀ·X)
//   the _add variants:               C += A·B, blocked the same way
//
// A, B: any Eigen expressions with middleRows / middleCols (a transpose, a block, a Map); C: a
// destination presized to A.rows() × B.cols(). Nothing is allocated beyond Eigen's packing buffers
// (on the stack below EIGEN_STACK_ALLOCATION_LIMIT).
#pragma once

#include <featurelab/threads.hpp>
#include <featurelab/types.hpp>

#include <algorithm>

namespace featurelab {

// How many blocks a product of `flops` floating-point operations is split into along a dimension of
// `extent`: one for a small product (a block's own packing would cost more than a thread gains), else 2
// or 4 blocks of at least kMinProductBlock rows or columns (even counts: balanced on 2 threads; few:
// a narrow block runs a GEMM kernel below its speed). Shape only, never threads.
constexpr Index kMinProductBlock = 128;
constexpr double kMinParallelFlops = 4e6;
inline Index product_blocks(Index extent, double flops) {
  if (flops < kMinParallelFlops || extent < 2 * kMinProductBlock) return 1;
  return extent < 4 * kMinProductBlock ? 2 : 4;
}

namespace detail {

// f(begin, size) for each of `blocks` blocks of [0, extent), on the job's threads.
template <class F>
void over_product_blocks(Index extent, Index blocks, F&& f) {
  const int threads = blocks > 1 ? job_threads() : 1;
  if (threads == 1) {
    for (Index c = 0; c < blocks; ++c) f(extent * c / blocks, extent * (c + 1) / blocks - extent * c / blocks);
    return;
  }
#pragma omp parallel for num_threads(threads) schedule(static, 1)
  for (Index c = 0; c < blocks; ++c) f(extent * c / blocks, extent * (c + 1) / blocks - extent * c / blocks);
}

inline double product_flops(Index rows, Index inner, Index cols) { return 2.0 * double(rows) * double(inner) * double(cols); }

}  // namespace detail

template <class Dst, class Lhs, class Rhs>
void parallel_product_rows(Dst&& C, const Lhs& A, const Rhs& B) {
  const Index blocks = product_blocks(A.rows(), detail::product_flops(A.rows(), A.cols(), B.cols()));
  detail::over_product_blocks(A.rows(), blocks,
                              [&](Index begin, Index size) { C.middleRows(begin, size).noalias() = A.middleRows(begin, size) * B; });
}

template <class Dst, class Lhs, class Rhs>
void parallel_product_rows_add(Dst&& C, const Lhs& A, const Rhs& B) {
  const Index blocks = product_blocks(A.rows(), detail::product_flops(A.rows(), A.cols(), B.cols()));
  detail::over_product_blocks(A.rows(), blocks,
                              [&](Index begin, Index size) { C.middleRows(begin, size).noalias() += A.middleRows(begin, size) * B; });
}

template <class Dst, class Lhs, class Rhs>
void parallel_product_cols(Dst&& C, const Lhs& A, const Rhs& B) {
  const Index blocks = product_blocks(B.cols(), detail::product_flops(A.rows(), A.cols(), B.cols()));
  detail::over_product_blocks(B.cols(), blocks,
                              [&](Index begin, Index size) { C.middleCols(begin, size).noalias() = A * B.middleCols(begin, size); });
}

template <class Dst, class Lhs, class Rhs>
void parallel_product_cols_add(Dst&& C, const Lhs& A, const Rhs& B) {
  const Index blocks = product_blocks(B.cols(), detail::product_flops(A.rows(), A.cols(), B.cols()));
  detail::over_product_blocks(B.cols(), blocks,
                              [&](Index begin, Index size) { C.middleCols(begin, size).noalias() += A * B.middleCols(begin, size); });
}

}  // namespace featurelab
