// Optimizer `gd`: gradient descent, optionally with ℓ1 soft-thresholding (ISTA).
// Each step is one fused pass over the flat parameter vector.
#pragma once

#include <featurelab/optimizer.hpp>

namespace featurelab::std_pack {

class GdOptimizer : public Optimizer {
 public:
  static constexpr Doc kDoc =
      "Gradient descent θ ← θ − lr·(g + wd·θ), optionally followed by ℓ1 soft-thresholding (ISTA), with the shared lr "
      "schedules.";
  static Schema schema();
  GdOptimizer(const Params& params, Context& context);
  void reset(Index) override {}
  void step(VecRef theta, ConstVecRef grad, Index t) override;
  double learning_rate(Index t) const override { return lr_.at(t); }

 private:
  LearningRate lr_;
  Scalar weight_decay_;
  Scalar l1_;
};

}  // namespace featurelab::std_pack
