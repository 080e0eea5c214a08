// The affine products of the linear and attention layers, register-tiled (featurelab/tiled_products.hpp) where the
// output width is a whole number of vector strips, as fourier-icl's transformer computes its own: the widths of
// these networks (tens to a few hundred) are where a general GEMM spends its time packing panels. Each product
// runs over fixed blocks of rows (or of inputs, for a weight's gradient) on the job's threads, and every output
// is one sum in a fixed order: the bits depend on the shapes alone. Other widths take parallel_product.hpp.
//
//   times_transposed(Y, X, W, Wt)      Y  = X·Wᵀ   (rows×out = rows×in · (out×in)ᵀ); Wt: in×out scratch
//   transpose_times(dW, X, G, dWt)     dW  = Gᵀ·X  (out×in), the weight's gradient; dWt: in×out scratch
//   times(dX, G, W)                    dX  = G·W   (rows×in = rows×out · out×in), the input gradient
#pragma once

#include <featurelab/types.hpp>

namespace featurelab::std_pack::tiled_linear {

void times_transposed(MatMap Y, ConstMatMap X, ConstMatMap W, Mat& Wt);
void transpose_times(MatMap dW, ConstMatMap X, ConstMatMap G, Mat& dWt);
void times(MatMap dX, ConstMatMap G, ConstMatMap W);

}  // namespace featurelab::std_pack::tiled_linear
