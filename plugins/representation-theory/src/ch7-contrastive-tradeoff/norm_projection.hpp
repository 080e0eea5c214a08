// The Euclidean (Frobenius) projection onto chapter 7's representation classes, in double:
//   Φ   = {W : ‖W‖₂ ≤ c, ‖W‖_F ≤ F}                           (§7.2.2: c = 1, F = √r)
//   Φ_γ = Φ ∩ {W : ‖W − W₀‖_F ≤ γ}                            (F.105: the fine-tuning ball around W₀ = W*)
// Both norms of Φ are unitarily invariant, so its projection keeps the singular vectors and projects the singular
// values σ onto {σ′_i ≤ c, Σσ′_i² ≤ F²}: the KKT conditions give σ′_i = min(c, σ_i/τ) with the smallest τ ≥ 1 that
// meets the Frobenius bound (found by bisection to machine precision). This is the exact projection, and it
// matters: without it the logistic loss runs to infinite norm, so the projection defines the answer.
// The singular vectors come from the eigen-decomposition of the smaller Gram matrix (WWᵀ or WᵀW), and the projection
// is W′ = U diag(σ′/σ) Uᵀ W. The intersection Φ_γ is projected onto by Dykstra's alternating projections, which
// converge to the exact projection onto an intersection of convex sets (plain alternation only finds some point of it).
#pragma once

#include <featurelab/linalg.hpp>
#include <featurelab/types.hpp>

namespace featurelab::representation_theory_pack {

class NormProjection {
 public:
  // c <= 0: no spectral bound; F <= 0: no Frobenius bound.
  NormProjection(double spectral, double frobenius);

  // Adds the ball ‖W − center‖_F ≤ radius (radius <= 0 removes it).
  void set_ball(const featurelab::MatD& center, double radius);
  // Dykstra's stopping rule: at most `rounds`, until the iterates move by less than tolerance (relative).
  void set_dykstra(int rounds, double tolerance) { rounds_ = rounds; tolerance_ = tolerance; }

  // Projects W in place; returns the Dykstra rounds used (0 when only one set is active).
  int project(featurelab::MatD& W);

  // The projection of singular values σ (any order) onto {σ′ ≤ c, Σσ′² ≤ F²}, in place.
  static void project_singular_values(Eigen::VectorXd& sigma, double spectral, double frobenius);

 private:
  void project_norms(featurelab::MatD& W);  // onto Φ
  void project_ball(featurelab::MatD& W) const;

  double spectral_, frobenius_, radius_ = 0;
  featurelab::MatD center_;
  int rounds_ = 200;
  double tolerance_ = 1e-10;
  SymmetricEigen eigen_;
  Eigen::MatrixXd gram_, columns_, scaled_;  // reused: no allocation per projection
  Eigen::VectorXd sigma_, target_;
  featurelab::MatD x_, y_, p_, q_, t_, delta_;
};

}  // namespace featurelab::representation_theory_pack
