// Dual coordinate descent for the L1-loss SVM without intercept (Hsieh et al. 2008, Alg. 1, no
// shrinking): per sample, the dual gradient G = y_i⟨a, h_i⟩ − 1, the projected Newton step
// α_i ← clip(α_i − G/‖h_i‖², 0, C), and a += Δα_i y_i h_i.
// The pass over the samples (epoch) is readout_epoch.cpp.
#include "readout_solver.hpp"

#include <featurelab/error.hpp>

#include <string>

namespace featurelab::feature_emergence_pack {

HingeReadout::HingeReadout(ConstMatRef H, const VecD& y, double lambda, std::size_t max_window)
    : H_(H), y_(y), alpha_(VecD::Zero(H.rows())), a_(VecD::Zero(H.cols())), c_(1.0 / (lambda * static_cast<double>(H.rows()))),
      max_window_(max_window) {
  if (max_window != 1 && max_window != 2 && max_window != 4 && max_window != kMaxWindow) {
    throw Error("the readout's window is 1, 2, 4 or 8 samples, got " + std::to_string(max_window));
  }
  q_ = H.cast<double>().rowwise().squaredNorm();
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
