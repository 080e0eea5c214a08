#include "least_squares.hpp"

#include <featurelab/linalg.hpp>

#include <cmath>
#include <limits>

namespace featurelab::representation_theory_pack {

double GramSpectrum::kappa() const {
  return lambda_min > 0 ? lambda_max / lambda_min : std::numeric_limits<double>::infinity();
}

GramSpectrum gram_spectrum(const MatD& X) {
  const Eigen::MatrixXd gram = X.transpose() * X;
  // XᵀX is symmetric positive semi-definite: the self-adjoint solver returns its eigenvalues in increasing order.
  const SymmetricEigen eigen = symmetric_eigen(gram, false);
  return {eigen.values(0), eigen.values(gram.rows() - 1)};
}

MatD gd_trajectory(const MatD& X, const VecD& y, const VecD& theta0, double eta, Index steps) {
  MatD path(steps + 1, X.cols());
  VecD theta = theta0;
  path.row(0) = theta.transpose();
  for (Index t = 1; t <= steps; ++t) {
    theta -= eta * (X.transpose() * (X * theta - y));
    path.row(t) = theta.transpose();
  }
  return path;
}

double log_theory_bound(double t, double kappa) { return -t / kappa; }

double log_exact_gd_bound(double t, double kappa) {
  if (t == 0) return 0;
  return 2 * t * std::log1p(-1 / kappa);
}

}  // namespace featurelab::representation_theory_pack
