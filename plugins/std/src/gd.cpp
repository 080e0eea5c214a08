// Plain gradient descent.
#include "optimizers.hpp"

namespace featurelab::std_pack {

Schema GradientDescent::schema() {
  Schema s = schedule_schema();
  s.real("weight_decay", 0.0, "coupled weight decay (added to the gradient)").min(0);
  return s;
}

GradientDescent::GradientDescent(const Params& params, Context& context)
    : lr_(params, context.total_steps), weight_decay_(static_cast<Scalar>(params.real("weight_decay"))) {}

void GradientDescent::step(VecRef theta, ConstVecRef grad, Index t) {
  const auto lr = static_cast<Scalar>(lr_.at(t));
  if (weight_decay_ > 0) {
    theta = (Scalar(1) - lr * weight_decay_) * theta - lr * grad;
  } else {
    theta.noalias() -= lr * grad;
  }
}

}  // namespace featurelab::std_pack
