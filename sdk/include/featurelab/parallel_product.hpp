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
//
// The kernel of a block: Eigen's, or where the process runs BLIS (product_kernel.hpp: a build linked with
// Debian's serial BLIS, on a CPU BLIS has kernels for) BLIS through its CBLAS interface, for blocks large
// enough in every dimension that it wins (blas_block below; a block with an inner dimension of 2 runs
// several times slower in BLIS than in Eigen). Which kernel runs a block is decided by the process's kernel,
// the block's shape and the operands' layout alone.
#pragma once

#include <featurelab/product_kernel.hpp>
#include <featurelab/threads.hpp>
#include <featurelab/types.hpp>

#include <algorithm>
#include <type_traits>

#ifdef FEATURELAB_BLIS
// The CBLAS entry points of libblis.so.4 (Debian's libblis4-serial ships no header): the standard
// CBLAS signatures, 32-bit integers, enum values of the CBLAS reference.
extern "C" {
void cblas_sgemm(int order, int transa, int transb, int m, int n, int k, float alpha, const float* a, int lda,
                 const float* b, int ldb, float beta, float* c, int ldc);
void cblas_dgemm(int order, int transa, int transb, int m, int n, int k, double alpha, const double* a, int lda,
                 const double* b, int ldb, double beta, double* c, int ldc);
}
#endif

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

#ifdef FEATURELAB_BLIS
// Which blocks BLIS computes, from the layout and the shape (the bench's kernel_shape rows; bench/README.md):
// - A stored in the other order than C, B in C's order (∇W = Gᵀ·X): BLIS ran at 1.25–1.8× Eigen's speed at
//   every shape measured with 20 or more rows and columns, an inner dimension of 2 included (0.9× with 10 rows);
// - any other layout (Z = X·Wᵀ): BLIS wins from an inner dimension of 128 on (1.0–1.8×) and loses below it
//   (0.2× at an inner dimension of 2, 0.7–0.8× at 64), so Eigen keeps those.
// Below kBlasMinFlops a call costs more than it saves.
constexpr double kBlasMinFlops = 1e5;
constexpr Index kBlasMinGradientOuter = 16;
constexpr Index kBlasMinInner = 128;
constexpr Index kBlasMinOuter = 32;
inline bool blas_block(bool gradient_layout, Index rows, Index inner, Index cols) {
  if (2.0 * double(rows) * double(inner) * double(cols) < kBlasMinFlops) return false;
  if (gradient_layout) return rows >= kBlasMinGradientOuter && cols >= kBlasMinGradientOuter;
  return inner >= kBlasMinInner && rows >= kBlasMinOuter && cols >= kBlasMinOuter;
}

template <class M>
constexpr bool is_row_major = (std::decay_t<M>::Flags & Eigen::RowMajorBit) != 0;
template <class M>
constexpr bool has_direct_access = (std::decay_t<M>::Flags & Eigen::DirectAccessBit) != 0;

// C = A·B (beta 0) or C += A·B (beta 1) by one CBLAS call in C's own storage order; false (nothing done)
// when an operand is not a strided array of Scalar with unit inner stride.
template <class Dst, class Lhs, class Rhs>
bool blas_product(Dst& C, const Lhs& A, const Rhs& B, Scalar beta) {
  if constexpr (has_direct_access<Dst> && has_direct_access<Lhs> && has_direct_access<Rhs> &&
                std::is_same_v<typename std::decay_t<Lhs>::Scalar, Scalar> &&
                std::is_same_v<typename std::decay_t<Rhs>::Scalar, Scalar> &&
                std::is_same_v<typename std::decay_t<Dst>::Scalar, Scalar>) {
    if (A.innerStride() != 1 || B.innerStride() != 1 || C.innerStride() != 1) return false;
    constexpr bool c_rows = is_row_major<Dst>;
    constexpr int kRowMajor = 101, kColMajor = 102, kNoTrans = 111, kTrans = 112;
    // An operand stored in C's order is used as it is, one in the other order transposed.
    const int ta = is_row_major<Lhs> == c_rows ? kNoTrans : kTrans;
    const int tb = is_row_major<Rhs> == c_rows ? kNoTrans : kTrans;
    const auto m = static_cast<int>(A.rows()), n = static_cast<int>(B.cols()), k = static_cast<int>(A.cols());
    const auto lda = static_cast<int>(A.outerStride()), ldb = static_cast<int>(B.outerStride()),
               ldc = static_cast<int>(C.outerStride());
    if constexpr (std::is_same_v<Scalar, float>) {
      cblas_sgemm(c_rows ? kRowMajor : kColMajor, ta, tb, m, n, k, 1.0f, A.data(), lda, B.data(), ldb, beta, C.data(), ldc);
    } else {
      cblas_dgemm(c_rows ? kRowMajor : kColMajor, ta, tb, m, n, k, 1.0, A.data(), lda, B.data(), ldb, beta, C.data(), ldc);
    }
    return true;
  } else {
    return false;
  }
}
#endif

// One output block: C = A·B, or C += A·B with `accumulate`, on the process's kernel (above).
template <class Dst, class Lhs, class Rhs>
void block_product(Dst&& C, const Lhs& A, const Rhs& B, bool accumulate) {
#ifdef FEATURELAB_BLIS
  constexpr bool gradient_layout = is_row_major<Lhs> != is_row_major<Dst> && is_row_major<Rhs> == is_row_major<Dst>;
  if (product_kernel() == ProductKernel::blis && blas_block(gradient_layout, A.rows(), A.cols(), B.cols()) &&
      blas_product(C, A, B, accumulate ? Scalar(1) : Scalar(0))) {
    return;
  }
#endif
  if (accumulate) {
    C.noalias() += A * B;
  } else {
    C.noalias() = A * B;
  }
}

}  // namespace detail

template <class Dst, class Lhs, class Rhs>
void parallel_product_rows(Dst&& C, const Lhs& A, const Rhs& B) {
  const Index blocks = product_blocks(A.rows(), detail::product_flops(A.rows(), A.cols(), B.cols()));
  detail::over_product_blocks(A.rows(), blocks,
                              [&](Index begin, Index size) { detail::block_product(C.middleRows(begin, size), A.middleRows(begin, size), B, false); });
}

template <class Dst, class Lhs, class Rhs>
void parallel_product_rows_add(Dst&& C, const Lhs& A, const Rhs& B) {
  const Index blocks = product_blocks(A.rows(), detail::product_flops(A.rows(), A.cols(), B.cols()));
  detail::over_product_blocks(A.rows(), blocks,
                              [&](Index begin, Index size) { detail::block_product(C.middleRows(begin, size), A.middleRows(begin, size), B, true); });
}

template <class Dst, class Lhs, class Rhs>
void parallel_product_cols(Dst&& C, const Lhs& A, const Rhs& B) {
  const Index blocks = product_blocks(B.cols(), detail::product_flops(A.rows(), A.cols(), B.cols()));
  detail::over_product_blocks(B.cols(), blocks,
                              [&](Index begin, Index size) { detail::block_product(C.middleCols(begin, size), A, B.middleCols(begin, size), false); });
}

template <class Dst, class Lhs, class Rhs>
void parallel_product_cols_add(Dst&& C, const Lhs& A, const Rhs& B) {
  const Index blocks = product_blocks(B.cols(), detail::product_flops(A.rows(), A.cols(), B.cols()));
  detail::over_product_blocks(B.cols(), blocks,
                              [&](Index begin, Index size) { detail::block_product(C.middleCols(begin, size), A, B.middleCols(begin, size), true); });
}

}  // namespace featurelab
