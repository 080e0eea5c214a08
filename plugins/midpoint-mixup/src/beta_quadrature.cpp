// Golub–Welsch for the symmetric Jacobi weight (α = β = a − 1): the three-term recurrence of the
// orthonormal Jacobi polynomials has zero diagonal and off-diagonal entries
//   b_n² = 4 n (n+α)(n+β)(n+α+β) / ((2n+α+β)² (2n+α+β+1)(2n+α+β−1)),
// whose n = 1 entry is simplified by hand (the factor n+α+β cancels, and vanishes for a = 1/2).
#include "beta_quadrature.hpp"

#include <featurelab/error.hpp>

#include <Eigen/Eigenvalues>

#include <cmath>
#include <string>

namespace featurelab::midpoint_mixup_pack {

Quadrature beta_quadrature(double a, int points) {
  if (!(a > 0) || !std::isfinite(a)) throw Error("Beta(a, a) quadrature needs a > 0, got " + std::to_string(a));
  if (points < 1 || points > 1000) {
    throw Error("quadrature_nodes must be in [1, 1000], got " + std::to_string(points));
  }
  const double al = a - 1, s = 2 * al;  // α = β = a − 1, s = α + β
  Eigen::VectorXd diagonal = Eigen::VectorXd::Zero(points);
  Eigen::VectorXd off(std::max(points - 1, 0));
  for (int n = 1; n < points; ++n) {
    const double nn = n;
    double b2;
    if (n == 1) {
      b2 = 4 * (1 + al) * (1 + al) / ((2 + s) * (2 + s) * (3 + s));
    } else {
      const double t = 2 * nn + s;
      b2 = 4 * nn * (nn + al) * (nn + al) * (nn + s) / (t * t * (t + 1) * (t - 1));
    }
    off(n - 1) = std::sqrt(b2);
  }
  Quadrature q;
  q.nodes.resize(points);
  q.weights.resize(points);
  if (points == 1) {
    q.nodes(0) = 0.5;
    q.weights(0) = 1;
    return q;
  }
  Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> solver;
  solver.computeFromTridiagonal(diagonal, off, Eigen::ComputeEigenvectors);
  if (solver.info() != Eigen::Success) throw Error("Beta quadrature: the eigen solver did not converge");
  // Eigenvalues come ascending; t ∈ (−1, 1) maps to λ = (1 + t)/2. The weights' total is the
  // weight function's mass, so normalising them gives the Beta probability measure.
  q.nodes = (solver.eigenvalues().array() + 1) / 2;
  q.weights = solver.eigenvectors().row(0).transpose().array().square();
  q.weights /= q.weights.sum();
  return q;
}

}  // namespace featurelab::midpoint_mixup_pack
