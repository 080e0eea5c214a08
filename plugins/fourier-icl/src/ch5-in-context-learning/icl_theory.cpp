#include "icl_theory.hpp"

namespace featurelab::fourier_icl_pack {

VecD optimal_coefficients(const IclSetting& s, int rank) {
  const Index d = s.eigenvalues.size();
  const double trace = s.eigenvalues.sum();
  VecD v = VecD::Zero(d);
  for (Index i = 0; i < std::min<Index>(rank, d); ++i) v(i) = s.context / ((s.context + 1) * s.eigenvalues(i) + trace);
  return v;
}

double evaluation_loss(const IclSetting& s, const MatD& G, const VecD& c, double shots, double sigma) {
  const Index d = s.eigenvalues.size();
  const MatD D = s.eigenvalues.asDiagonal();
  const VecD bias = (G * D - MatD::Identity(d, d)) * c;
  const VecD Dc = D * c;
  const MatD C = Dc * Dc.transpose() + (c.dot(Dc) + sigma * sigma) * D;
  return bias.dot(D * bias) + (D * G * C * G.transpose()).trace() / shots;
}

double optimal_evaluation_loss(const IclSetting& s, int rank, const VecD& c, double shots, double sigma) {
  return evaluation_loss(s, optimal_coefficients(s, rank).asDiagonal().toDenseMatrix(), c, shots, sigma);
}

double pretraining_loss(const IclSetting& s, const MatD& G) {
  const Index d = s.eigenvalues.size();
  const MatD D = s.eigenvalues.asDiagonal();
  const MatD E = G * D - MatD::Identity(d, d);
  const MatD C = D * D + s.eigenvalues.sum() * D;
  return (E.transpose() * D * E).trace() + (D * G * C * G.transpose()).trace() / s.context;
}

}  // namespace featurelab::fourier_icl_pack
