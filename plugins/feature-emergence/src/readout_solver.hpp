// The frozen-first-layer readout of Shi 2024 ("One Step", "Two Step", random features; ch. 3's OPT of
// Def. 3.3): with the hidden layer fixed, g(x) = ⟨a, h(x)⟩ and the hinge loss is convex in a, so the
// readout is an SVM without intercept,
//     min_a  (λ/2)‖a‖² + (1/n) Σ_i max(0, 1 − y_i⟨a, h_i⟩),
// solved by dual coordinate descent (Hsieh et al. 2008, the liblinear method): the dual variables
// α_i ∈ [0, 1/(λn)] are updated one sample at a time in a fresh random order per epoch, keeping
// a = Σ α_i y_i h_i. Gradient methods stall on these features: after two steps of the chapter's
// schedule the neurons all point along ±v with slopes ≈ 1/k² per pattern count, so the hidden
// matrix is nearly collinear and the separating readout needs weights ≈ k² along directions of tiny
// curvature; the dual method reaches it in tens of epochs where 600 Adam steps end at the linear
// (84 %) solution.
#pragma once

#include <featurelab/rng.hpp>
#include <featurelab/types.hpp>

#include <cstddef>
#include <functional>

namespace featurelab::feature_emergence_pack {

class HingeReadout {
 public:
  static constexpr std::size_t kMaxWindow = 8;
  // H: n×m hidden features (kept by reference: it must outlive the solver); y: ±1 labels.
  // max_window (1, 2, 4 or 8): margins computed ahead of the current sample, at most; every value
  // gives the same bits (1: one sample at a time, the plain loop).
  HingeReadout(featurelab::ConstMatRef H, const featurelab::VecD& y, double lambda, std::size_t max_window = kMaxWindow);
  // One pass over the samples in a random order.
  void epoch(featurelab::Rng& rng);
  const featurelab::VecD& weights() const { return a_; }
  // (λ/2)‖a‖² + mean hinge, and the training accuracy of sign⟨a, h⟩.
  double primal() const;
  // The dual objective on the same scale, (Σα − ½‖a‖²)/(Cn): primal − dual ≥ 0 is the duality gap.
  double dual() const;
  double accuracy() const;

 private:
  featurelab::ConstMatRef H_;
  featurelab::VecD y_, alpha_, q_, a_;
  double c_;  // the box 1/(λn)
  std::size_t max_window_;
};

}  // namespace featurelab::feature_emergence_pack
