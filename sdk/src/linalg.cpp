// Random orthonormal frames: Householder QR of a Gaussian matrix drawn entry by entry; the symmetric
// eigensolver and the singular values, instantiated once.
#include <featurelab/error.hpp>
#include <featurelab/linalg.hpp>

#include <Eigen/Eigenvalues>
#include <Eigen/QR>
#include <Eigen/SVD>

#include <string>

namespace featurelab {

Eigen::MatrixXd random_orthonormal(Rng& rng, Index rows, Index cols, DrawOrder order) {
  if (cols < 0 || cols > rows) {
    throw Error("random_orthonormal: " + std::to_string(cols) + " orthonormal columns do not fit in R^" +
                std::to_string(rows));
  }
  Eigen::MatrixXd g(rows, cols);
  if (order == DrawOrder::ByColumns) {
    for (Index c = 0; c < cols; ++c) {
      for (Index r = 0; r < rows; ++r) g(r, c) = rng.normal();
    }
  } else {
    for (Index r = 0; r < rows; ++r) {
      for (Index c = 0; c < cols; ++c) g(r, c) = rng.normal();
    }
  }
  const Eigen::HouseholderQR<Eigen::MatrixXd> qr(g);
  return qr.householderQ() * Eigen::MatrixXd::Identity(rows, cols);
}

template <class Matrix>
Matrix random_orthogonal(Rng& rng, Index d) {
  Matrix g(d, d);
  for (Index i = 0; i < g.size(); ++i) g.data()[i] = rng.normal();  // storage order
  const Eigen::HouseholderQR<Matrix> qr(g);
  return Matrix(qr.householderQ());
}

template Eigen::MatrixXd random_orthogonal<Eigen::MatrixXd>(Rng& rng, Index d);
template MatD random_orthogonal<MatD>(Rng& rng, Index d);

void symmetric_eigen(const Eigen::MatrixXd& A, SymmetricEigen& out, bool with_vectors) {
  const Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> solver(A, with_vectors ? Eigen::ComputeEigenvectors
                                                                              : Eigen::EigenvaluesOnly);
  out.values = solver.eigenvalues();
  if (with_vectors) {
    out.vectors = solver.eigenvectors();
  } else {
    out.vectors.resize(0, 0);
  }
}

SymmetricEigen symmetric_eigen(const Eigen::MatrixXd& A, bool with_vectors) {
  SymmetricEigen out;
  symmetric_eigen(A, out, with_vectors);
  return out;
}

Eigen::VectorXd singular_values(const Eigen::MatrixXd& A) { return Eigen::JacobiSVD<Eigen::MatrixXd>(A).singularValues(); }

void thin_svd(const Eigen::MatrixXd& A, ThinSvd& out) {
  const Eigen::JacobiSVD<Eigen::MatrixXd> svd(A, Eigen::ComputeThinU | Eigen::ComputeThinV);
  out.U = svd.matrixU();
  out.values = svd.singularValues();
  out.V = svd.matrixV();
}

}  // namespace featurelab
