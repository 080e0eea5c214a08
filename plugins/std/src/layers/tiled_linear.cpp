// Fixed blocks of rows (or inputs) on the job's threads, each one register-tiled product.
#include "tiled_linear.hpp"

#include <featurelab/parallel_product.hpp>
#include <featurelab/tiled_products.hpp>

#include <utility>

namespace featurelab::std_pack::tiled_linear {

namespace {

// A product below this many operations runs on one thread: handing half of it to a second costs more than that
// half. Measured on the composed transformer at width 64, whose MLP products have 4.2 MFLOP: on two threads their
// halves made the step slower than on one (bench/README.md round 21); conv-net's head at Fashion-MNIST's batch
// (750 × 784 × 10, 11.8 MFLOP) gains from two (round 24).
constexpr double kMinBlockedFlops = 1e7;

// Blocks of at least 64 rows, at most 4: shape only, never the thread count.
Index blocks_of(Index extent, double flops) {
  if (flops < kMinBlockedFlops || extent < 128) return 1;
  return extent < 256 ? 2 : 4;
}

double flops(Index rows, Index inner, Index cols) { return 2.0 * double(rows) * double(inner) * double(cols); }

}  // namespace

void times(MatRef Y, ConstMatRef X, ConstMatRef W, bool accumulate) {
  const Index rows = X.rows(), inner = X.cols(), cols = W.cols();
  if (!tiled_products::fits_strips(cols)) {
    if (accumulate) {
      parallel_product_rows_add(Y, X, W);
    } else {
      parallel_product_rows(Y, X, W);
    }
    return;
  }
  detail::over_product_blocks(rows, blocks_of(rows, flops(rows, inner, cols)), [&](Index begin, Index size) {
    const Scalar* x = X.data() + begin * X.outerStride();
    Scalar* y = Y.data() + begin * Y.outerStride();
    if (accumulate) {
      tiled_products::times<true>(x, X.outerStride(), size, inner, W.data(), W.outerStride(), y, Y.outerStride(), cols);
    } else {
      tiled_products::times<false>(x, X.outerStride(), size, inner, W.data(), W.outerStride(), y, Y.outerStride(), cols);
    }
  });
}

void times_transposed(MatRef Y, ConstMatRef X, ConstMatRef W, Mat& Wt, bool accumulate) {
  if (!tiled_products::fits_strips(W.rows())) {
    if (accumulate) {
      parallel_product_rows_add(Y, X, W.transpose());
    } else {
      parallel_product_rows(Y, X, W.transpose());
    }
    return;
  }
  Wt = W.transpose();
  times(Y, X, Wt, accumulate);
}

void weight_gradient(MatRef dW, ConstMatRef X, ConstMatRef G) {
  const Index rows = X.rows(), in = X.cols(), cols = G.cols();
  if (!tiled_products::fits_strips(cols)) {
    parallel_product_cols(dW, X.transpose(), G);
    return;
  }
  dW.setZero();
  // Blocks of inputs: each row of ∇W is one sum over every row of the batch, in row order.
  detail::over_product_blocks(in, blocks_of(in, flops(rows, in, cols)), [&](Index begin, Index size) {
    tiled_products::add_transpose_times(X.data() + begin, X.outerStride(), rows, size, G.data(), G.outerStride(),
                                        dW.data() + begin * dW.outerStride(), dW.outerStride(), cols);
  });
}

void transpose_times(MatRef dW, ConstMatRef X, ConstMatRef G, Mat& dWt) {
  if (!tiled_products::fits_strips(G.cols())) {
    parallel_product_cols(dW, G.transpose(), X);
    return;
  }
  dWt.resize(X.cols(), G.cols());
  weight_gradient(dWt, X, G);
  dW = dWt.transpose();
}

}  // namespace featurelab::std_pack::tiled_linear
