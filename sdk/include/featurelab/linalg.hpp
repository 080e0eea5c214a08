// Random orthonormal frames from a component's stream: the Q factor of a Gaussian matrix's QR; and Eigen's
// symmetric eigensolver and singular values of a double matrix, compiled once here rather than in every unit
// that decomposes a matrix (each instantiation costs 10–15 s of -O3 compile time).
//
// Distributions draw their dictionaries and rotations here, so a seed gives the same frame in every
// pack. The entries are drawn one by one with Rng::normal(), in a fixed order; another order (or
// another storage for the factorisation) is another matrix for the same seed, so the order is part
// of the contract and never changes.
#pragma once

#include <featurelab/rng.hpp>
#include <featurelab/types.hpp>

namespace featurelab {

// The order in which a rows×cols Gaussian matrix's entries are drawn.
enum class DrawOrder { ByColumns, ByRows };

// rows×cols (cols <= rows) with orthonormal columns: the first cols columns of Q in the QR of a
// rows×cols standard Gaussian matrix (Haar-distributed). The factorisation is column-major double.
Eigen::MatrixXd random_orthonormal(Rng& rng, Index rows, Index cols, DrawOrder order = DrawOrder::ByColumns);

// d×d orthogonal: the whole Q of a d×d Gaussian matrix whose entries are drawn in Matrix's storage
// order (column by column for Eigen::MatrixXd, row by row for the row-major MatD) and factored in
// that storage. Q is formed from the Householder sequence directly, not as Q·I: the two round
// differently at some sizes, and random_orthonormal(rng, d, d) is the latter.
template <class Matrix>
Matrix random_orthogonal(Rng& rng, Index d);

extern template Eigen::MatrixXd random_orthogonal<Eigen::MatrixXd>(Rng& rng, Index d);
extern template MatD random_orthogonal<MatD>(Rng& rng, Index d);

// The eigen-decomposition of a symmetric A (its lower triangle is read): Eigen::SelfAdjointEigenSolver's,
// so the same bits as calling it in place. values ascending; vectors' columns in the same order, empty
// unless asked for. `out` keeps its storage from call to call.
struct SymmetricEigen {
  Eigen::VectorXd values;
  Eigen::MatrixXd vectors;
};
void symmetric_eigen(const Eigen::MatrixXd& A, SymmetricEigen& out, bool with_vectors = true);
SymmetricEigen symmetric_eigen(const Eigen::MatrixXd& A, bool with_vectors = true);

// A's singular values, descending: Eigen::JacobiSVD's (two-sided Jacobi, accurate for small matrices).
Eigen::VectorXd singular_values(const Eigen::MatrixXd& A);

// A's thin SVD, A = U·diag(values)·Vᵀ: U m×r, values descending, V n×r, r = min(m, n); the same JacobiSVD (one
// instantiation here, not one in every file that needs it: compiling it costs 20–40 s).
struct ThinSvd {
  Eigen::MatrixXd U;
  Eigen::VectorXd values;
  Eigen::MatrixXd V;
};
void thin_svd(const Eigen::MatrixXd& A, ThinSvd& out);

}  // namespace featurelab
