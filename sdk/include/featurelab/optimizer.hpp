// An optimizer updates the flat trainable parameter vector from its gradient.
//
// The learning-rate schedule is shared by all optimizers: schedule_schema() is merged into each
// optimizer's schema and LearningRate reads it back.
#pragma once

#include <featurelab/component.hpp>

namespace featurelab {

class LearningRate {
 public:
  LearningRate() = default;
  LearningRate(const Params& params, Index total_steps);
  // Learning rate at 0-based step t.
  double at(Index t) const;

 private:
  double base_ = 0.01;
  std::string schedule_ = "constant";
  Index step_every_ = 0;
  double gamma_ = 0.1;
  Index warmup_ = 0;
  double final_fraction_ = 0.0;
  Index total_ = 0;
};

Schema schedule_schema();

class Optimizer : public Component {
 public:
  static constexpr Kind kind_id = Kind::Optimizer;
  static constexpr const char* interface_id = "featurelab.optimizer/1";

  // Sizes the optimizer's state (momenta) for a parameter vector of this length; zeroes it.
  virtual void reset(Index size) = 0;
  // theta -= update(grad) at 0-based step t.
  virtual void step(VecRef theta, ConstVecRef grad, Index t) = 0;
  virtual double learning_rate(Index t) const = 0;
};

}  // namespace featurelab
