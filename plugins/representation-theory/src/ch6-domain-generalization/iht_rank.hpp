// Optimizer `iht-rank`: ERM-rank (Shi 2024 eq. 6.5, min L(w) s.t. ‖w‖₀ ≤ B_rank) by iterative hard
// thresholding: a gradient step, then every trainable parameter but the `budget` largest in
// magnitude is set to 0. In the diagonal model of Sec. 6.4 the rank of Φ(X) = X·diag(w) is the
// support size, so this is the rank bound of the chapter. The infimum of the loss is approached
// as ‖w‖ → ∞ (Lemma 6.2's optimum is an infimum): a step budget, not convergence, ends a run.
#pragma once

#include <featurelab/optimizer.hpp>

#include <vector>

namespace featurelab::representation_theory_pack {

class IhtRank : public featurelab::Optimizer {
 public:
  static constexpr featurelab::Doc kDoc =
      "Iterative hard thresholding: gradient step, then keep the `budget` largest |θ_j| (ERM-rank, Shi 2024 "
      "eq. 6.5).";
  static featurelab::Schema schema();
  IhtRank(const featurelab::Params& params, featurelab::Context& context);

  void reset(featurelab::Index size) override;
  void step(featurelab::VecRef theta, featurelab::ConstVecRef grad, featurelab::Index t) override;
  double learning_rate(featurelab::Index t) const override { return lr_.at(t); }

 private:
  featurelab::LearningRate lr_;
  featurelab::Index budget_;
  std::vector<featurelab::Index> order_;  // reused: no allocation in a step
};

}  // namespace featurelab::representation_theory_pack
