#include "norm_projection.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace featurelab::representation_theory_pack {

NormProjection::NormProjection(double spectral, double frobenius) : spectral_(spectral), frobenius_(frobenius) {}

void NormProjection::set_ball(const MatD& center, double radius) {
  center_ = center;
  radius_ = radius;
}

void NormProjection::project_singular_values(Eigen::VectorXd& sigma, double spectral, double frobenius) {
  const double c = spectral > 0 ? spectral : std::numeric_limits<double>::infinity();
  sigma = sigma.cwiseMax(0.0);
  const auto mass = [&](double tau) { return (sigma.array() / tau).min(c).square().sum(); };
  if (frobenius <= 0 || mass(1.0) <= frobenius * frobenius) {
    sigma = sigma.cwiseMin(c);
    return;
  }
  // mass(τ) is continuous and decreasing; mass(1) > F² and mass(hi) <= ‖σ‖²/hi² = F².
  const double F2 = frobenius * frobenius;
  double lo = 1.0, hi = std::max(1.0, sigma.norm() / frobenius);
  for (int i = 0; i < 200 && hi - lo > 1e-16 * hi; ++i) {
    const double mid = 0.5 * (lo + hi);
    (mass(mid) > F2 ? lo : hi) = mid;
  }
  sigma = (sigma.array() / hi).min(c).matrix();
}

void NormProjection::project_norms(MatD& W) {
  if (spectral_ <= 0 && frobenius_ <= 0) return;
  const Index k = W.rows(), d = W.cols();
  const bool rows = k <= d;  // the smaller Gram matrix: WWᵀ (k×k) or WᵀW (d×d)
  const Index n = rows ? k : d;
  if (gram_.rows() != n) gram_.resize(n, n);
  if (rows) {
    gram_.noalias() = W * W.transpose();
  } else {
    gram_.noalias() = W.transpose() * W;
  }
  // A cheap exit for the common feasible case: ‖W‖_F ≤ F and ‖W‖₂² ≤ tr(WWᵀ) ≤ c² need no decomposition.
  const double fro2 = gram_.trace();
  if ((frobenius_ <= 0 || fro2 <= frobenius_ * frobenius_) && (spectral_ <= 0 || fro2 <= spectral_ * spectral_)) return;
  symmetric_eigen(gram_, eigen_);
  sigma_ = eigen_.values.cwiseMax(0.0).cwiseSqrt();
  target_ = sigma_;
  project_singular_values(target_, spectral_, frobenius_);
  // Factors σ′/σ (σ = 0 keeps a zero direction at zero whatever the factor).
  for (Index i = 0; i < n; ++i) target_(i) = sigma_(i) > 0 ? target_(i) / sigma_(i) : 1.0;
  if ((target_.array() >= 1.0).all()) return;
  // W′ = W + U diag(f − 1) Uᵀ W   (or W + W V diag(f − 1) Vᵀ).
  const auto& U = eigen_.vectors;
  columns_ = U;
  columns_.array().rowwise() *= (target_.array() - 1.0).transpose();  // U diag(f − 1), in place
  scaled_.noalias() = columns_ * U.transpose();
  if (rows) {
    delta_.noalias() = scaled_ * W;
  } else {
    delta_.noalias() = W * scaled_;
  }
  W += delta_;
}

void NormProjection::project_ball(MatD& W) const {
  if (radius_ <= 0) return;
  const double dist = (W - center_).norm();
  if (dist > radius_) W = center_ + (radius_ / dist) * (W - center_);
}

int NormProjection::project(MatD& W) {
  if (radius_ <= 0) {
    project_norms(W);
    return 0;
  }
  if (spectral_ <= 0 && frobenius_ <= 0) {
    project_ball(W);
    return 0;
  }
  // Dykstra: y = P_Φ(x + p), p ← x + p − y; x = P_ball(y + q), q ← y + q − x.
  x_ = W;
  p_.setZero(W.rows(), W.cols());
  q_.setZero(W.rows(), W.cols());
  const double scale = std::max(1.0, W.norm());
  int round = 0;
  while (round < rounds_) {
    ++round;
    y_ = x_ + p_;
    project_norms(y_);
    p_ += x_ - y_;
    t_ = y_ + q_;
    project_ball(t_);
    q_ += y_ - t_;
    const double moved = (t_ - x_).norm(), gap = (t_ - y_).norm();
    x_.swap(t_);
    if (moved <= tolerance_ * scale && gap <= tolerance_ * scale) break;
  }
  W = x_;
  return round;
}

}  // namespace featurelab::representation_theory_pack
