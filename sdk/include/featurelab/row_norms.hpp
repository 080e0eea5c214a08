// Norms of a matrix's rows and cosines between rows, accumulated in double.
//
// Why double: a float row whose entries fall below ~1e-19 (a neuron that weight decay or a small
// initialisation has shrunk) has a squared norm below float's smallest normal, so float's norm() reads
// 0 or a denormal, and a cosine divided by it came out as 871385 in a probe. Float entries squared in
// double never underflow. A zero row has cosine 0 with everything.
#pragma once

#include <featurelab/types.hpp>

namespace featurelab {

// ‖M_i‖ for every row i, n×1.
inline VecD row_norms(ConstMatRef M) { return M.cast<double>().rowwise().norm(); }

// cos(A_i, B_j) for every row i of A and j of B, rows(A)×rows(B); 0 where either row is 0.
inline MatD row_cosines(ConstMatRef A, ConstMatRef B) {
  const MatD a = A.cast<double>(), b = B.cast<double>();
  const VecD na = a.rowwise().norm(), nb = b.rowwise().norm();
  MatD cos = a * b.transpose();
  for (Index i = 0; i < cos.rows(); ++i) {
    for (Index j = 0; j < cos.cols(); ++j) cos(i, j) = na(i) > 0 && nb(j) > 0 ? cos(i, j) / (na(i) * nb(j)) : 0.0;
  }
  return cos;
}

}  // namespace featurelab
