// Optimizer `sgd`: SGD with momentum, as torch.optim.SGD.
// Each step is one fused pass over the flat parameter vector.
#pragma once

#include <featurelab/optimizer.hpp>

namespace featurelab::std_pack {

class SgdOptimizer : public Optimizer {
 public:
  static constexpr Doc kDoc =
      "SGD with momentum (optionally Nesterov) and coupled weight decay, as torch.optim.SGD.";
  static Schema schema();
  SgdOptimizer(const Params& params, Context& context);
  void reset(Index size) override;
  void step(VecRef theta, ConstVecRef grad, Index t) override;
  double learning_rate(Index t) const override { return lr_.at(t); }

 private:
  LearningRate lr_;
  Scalar momentum_, weight_decay_;
  bool nesterov_;
  bool started_ = false;
  Vec velocity_, g_;
};

}  // namespace featurelab::std_pack
