// Optimizer `adam`: Adam with bias correction, as torch.optim.Adam.
// Each step is one pass over the flat parameter vector, in chunks on the job's threads (adam_optimizer.cpp).
#pragma once

#include <featurelab/optimizer.hpp>

namespace featurelab::std_pack {

class AdamOptimizer : public Optimizer {
 public:
  static constexpr Doc kDoc =
      "Adam with bias correction; weight decay coupled (Adam) or decoupled (AdamW), as torch.optim.";
  static Schema schema();
  AdamOptimizer(const Params& params, Context& context, bool decoupled = false);
  void reset(Index size) override;
  void step(VecRef theta, ConstVecRef grad, Index t) override;
  double learning_rate(Index t) const override { return lr_.at(t); }

 protected:
  // The schema of adam and adamw: they differ in the default and meaning of weight_decay.
  static Schema adam_schema(double weight_decay, const char* decay_doc);

 private:
  LearningRate lr_;
  Scalar beta1_, beta2_, eps_, weight_decay_;
  bool decoupled_;
  Vec m_, v_, g_;
  Index count_ = 0;
};

}  // namespace featurelab::std_pack
