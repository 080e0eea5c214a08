// Fixed blocks of rows (or inputs) on the job's threads, each one register-tiled product.
#include "tiled_linear.hpp"

#include <featurelab/parallel_product.hpp>
#include <featurelab/tiled_products.hpp>

#include <utility>

namespace featurelab::std_pack::tiled_linear {

namespace {

// Blocks of at least 64 rows, at most 4: shape only, never the thread count.
Index blocks_of(Index extent, double flops) {
  if (flops < kMinParallelFlops || extent < 128) return 1;
  return extent < 256 ? 2 : 4;
}

template <class F>
void over_blocks(Index extent, Index blocks, F&& f) {
  detail::over_product_blocks(extent, blocks, std::forward<F>(f));
}

}  // namespace

void times_transposed(MatMap Y, ConstMatMap X, ConstMatMap W, Mat& Wt) {
  const Index rows = X.rows(), in = X.cols(), out = W.rows();
  if (!tiled_products::fits_strips(out)) {
    parallel_product_rows(Y, X, W.transpose());
    return;
  }
  Wt = W.transpose();
  over_blocks(rows, blocks_of(rows, 2.0 * double(rows) * double(in) * double(out)), [&](Index begin, Index size) {
    tiled_products::times<false>(X.data() + begin * in, in, size, in, Wt.data(), out, Y.data() + begin * out, out, out);
  });
}

void transpose_times(MatMap dW, ConstMatMap X, ConstMatMap G, Mat& dWt) {
  const Index rows = X.rows(), in = X.cols(), out = G.cols();
  if (!tiled_products::fits_strips(out)) {
    parallel_product_cols(dW, G.transpose(), X);
    return;
  }
  dWt.setZero(in, out);
  // Blocks of inputs: each row of ∇Wᵀ is one sum over every row of the batch, in row order.
  over_blocks(in, blocks_of(in, 2.0 * double(rows) * double(in) * double(out)), [&](Index begin, Index size) {
    tiled_products::add_transpose_times(X.data() + begin, in, rows, size, G.data(), out, dWt.data() + begin * out, out, out);
  });
  dW = dWt.transpose();
}

void times(MatMap dX, ConstMatMap G, ConstMatMap W) {
  const Index rows = G.rows(), out = G.cols(), in = W.cols();
  if (!tiled_products::fits_strips(in)) {
    parallel_product_rows(dX, G, W);
    return;
  }
  over_blocks(rows, blocks_of(rows, 2.0 * double(rows) * double(in) * double(out)), [&](Index begin, Index size) {
    tiled_products::times<false>(G.data() + begin * out, out, size, out, W.data(), in, dX.data() + begin * in, in, in);
  });
}

}  // namespace featurelab::std_pack::tiled_linear
