// The affine products of the linear and attention layers, register-tiled (featurelab/tiled_products.hpp) where the
// output width is a whole number of vector strips, as fourier-icl's transformer computes its own: at the widths of
// these networks (tens to a few hundred) a general GEMM spends its time packing panels. Each product runs over
// fixed blocks of rows (or of inputs, for a weight's gradient) on the job's threads, and every output is one sum
// in a fixed order: the bits depend on the shapes alone. Other widths take parallel_product.hpp. Operands are
// row-major with any row stride.
//
//   times(Y, X, W)                  Y (+)= X·W     W in×out
//   times_transposed(Y, X, W, Wt)   Y (+)= X·Wᵀ    W out×in; Wt: in×out scratch
//   weight_gradient(dW, X, G)       dW  = Xᵀ·G     dW in×out (the gradient of times' W)
//   transpose_times(dW, X, G, dWt)  dW  = Gᵀ·X     dW out×in (the gradient of times_transposed's W); dWt scratch
#pragma once

#include <featurelab/types.hpp>

namespace featurelab::std_pack::tiled_linear {

void times(MatRef Y, ConstMatRef X, ConstMatRef W, bool accumulate = false);
void times_transposed(MatRef Y, ConstMatRef X, ConstMatRef W, Mat& Wt, bool accumulate = false);
void weight_gradient(MatRef dW, ConstMatRef X, ConstMatRef G);
void transpose_times(MatRef dW, ConstMatRef X, ConstMatRef G, Mat& dWt);

}  // namespace featurelab::std_pack::tiled_linear
