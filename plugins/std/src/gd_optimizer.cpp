// Plain gradient descent.
#include "gd_optimizer.hpp"

namespace featurelab::std_pack {

Schema GdOptimizer::schema() {
  Schema s = schedule_schema();
  s.real("weight_decay", 0.0, "coupled weight decay (added to the gradient)").min(0);
  s.real("l1", 0.0,
         "proximal ℓ1 strength λ: soft-threshold θ by lr·λ after each step (ISTA), which gives exact zeros where "
         "the [[regularizer]] l1's subgradient only oscillates around them").min(0);
  return s;
}

GdOptimizer::GdOptimizer(const Params& params, Context& context)
    : lr_(params, context.total_steps),
      weight_decay_(static_cast<Scalar>(params.real("weight_decay"))),
      l1_(static_cast<Scalar>(params.real("l1"))) {}

void GdOptimizer::step(VecRef theta, ConstVecRef grad, Index t) {
  const auto lr = static_cast<Scalar>(lr_.at(t));
  if (weight_decay_ > 0) {
    theta = (Scalar(1) - lr * weight_decay_) * theta - lr * grad;
  } else {
    theta.noalias() -= lr * grad;
  }
  if (l1_ > 0) {
    // prox of lr·λ‖θ‖₁: sign(θ)·max(|θ| − lr·λ, 0).
    const Scalar cut = lr * l1_;
    theta = theta.array().sign() * (theta.array().abs() - cut).max(Scalar(0));
  }
}

}  // namespace featurelab::std_pack
