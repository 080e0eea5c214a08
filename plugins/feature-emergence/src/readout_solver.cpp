// Dual coordinate descent for the L1-loss SVM without intercept (Hsieh et al. 2008, Alg. 1, no
// shrinking): per sample, the dual gradient G = y_i⟨a, h_i⟩ − 1, the projected Newton step
// α_i ← clip(α_i − G/‖h_i‖², 0, C), and a += Δα_i y_i h_i.
#include "readout_solver.hpp"

#include <algorithm>

namespace featurelab::feature_emergence_pack {

HingeReadout::HingeReadout(ConstMatRef H, const VecD& y, double lambda)
    : H_(H), y_(y), alpha_(VecD::Zero(H.rows())), a_(VecD::Zero(H.cols())), c_(1.0 / (lambda * static_cast<double>(H.rows()))) {
  q_ = H.cast<double>().rowwise().squaredNorm();
}

void HingeReadout::epoch(Rng& rng) {
  const std::vector<Index> order = rng.permutation(H_.rows());
  for (const Index i : order) {
    if (q_(i) <= 0) continue;  // a sample no neuron sees cannot be served by the readout
    const auto h = H_.row(i).cast<double>();
    const double g = y_(i) * h.dot(a_.transpose()) - 1.0;
    const double next = std::clamp(alpha_(i) - g / q_(i), 0.0, c_);
    const double delta = next - alpha_(i);
    if (delta != 0) {
      alpha_(i) = next;
      a_.noalias() += (delta * y_(i)) * h.transpose();
    }
  }
}

double HingeReadout::primal() const {
  const VecD margins = (H_ * a_.cast<Scalar>()).cast<double>().cwiseProduct(y_);
  const double lambda = 1.0 / (c_ * static_cast<double>(H_.rows()));
  return 0.5 * lambda * a_.squaredNorm() + (1.0 - margins.array()).max(0.0).mean();
}

double HingeReadout::dual() const {
  return (alpha_.sum() - 0.5 * a_.squaredNorm()) / (c_ * static_cast<double>(H_.rows()));
}

double HingeReadout::accuracy() const {
  const VecD margins = (H_ * a_.cast<Scalar>()).cast<double>().cwiseProduct(y_);
  return (margins.array() > 0).cast<double>().mean();
}

}  // namespace featurelab::feature_emergence_pack
