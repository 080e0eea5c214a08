// The std optimizers, PyTorch's update rules, each one fused pass over the flat parameter vector.
#pragma once

#include <featurelab/optimizer.hpp>

namespace featurelab::std_pack {

class GradientDescent : public Optimizer {
 public:
  static constexpr Doc kDoc =
      "Gradient descent θ ← θ − lr·(g + wd·θ), optionally followed by ℓ1 soft-thresholding (ISTA), with the shared lr "
      "schedules.";
  static Schema schema();
  GradientDescent(const Params& params, Context& context);
  void reset(Index) override {}
  void step(VecRef theta, ConstVecRef grad, Index t) override;
  double learning_rate(Index t) const override { return lr_.at(t); }

 private:
  LearningRate lr_;
  Scalar weight_decay_;
  Scalar l1_;
};

class Sgd : public Optimizer {
 public:
  static constexpr Doc kDoc =
      "SGD with momentum (optionally Nesterov) and coupled weight decay, as torch.optim.SGD.";
  static Schema schema();
  Sgd(const Params& params, Context& context);
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

class Adam : public Optimizer {
 public:
  static constexpr Doc kDoc =
      "Adam with bias correction; weight decay coupled (Adam) or decoupled (AdamW), as torch.optim.";
  static Schema schema();
  Adam(const Params& params, Context& context, bool decoupled = false);
  void reset(Index size) override;
  void step(VecRef theta, ConstVecRef grad, Index t) override;
  double learning_rate(Index t) const override { return lr_.at(t); }

 private:
  LearningRate lr_;
  Scalar beta1_, beta2_, eps_, weight_decay_;
  bool decoupled_;
  Vec m_, v_, g_;
  Index count_ = 0;
};

class AdamW : public Adam {
 public:
  static constexpr Doc kDoc = "AdamW: Adam with decoupled weight decay θ ← θ − lr·wd·θ (Loshchilov & Hutter).";
  static Schema schema();
  AdamW(const Params& params, Context& context) : Adam(params, context, true) {}
};

}  // namespace featurelab::std_pack
