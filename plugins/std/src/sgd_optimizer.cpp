// SGD with momentum, as torch.optim.SGD (dampening 0): v ← μv + g; step along v or g + μv.
#include "sgd_optimizer.hpp"

namespace featurelab::std_pack {

Schema SgdOptimizer::schema() {
  Schema s = schedule_schema();
  s.real("momentum", 0.9, "momentum μ").min(0).below(1);
  s.boolean("nesterov", false, "Nesterov momentum");
  s.real("weight_decay", 0.0, "coupled weight decay (added to the gradient)").min(0);
  return s;
}

SgdOptimizer::SgdOptimizer(const Params& params, Context& context)
    : lr_(params, context.total_steps),
      momentum_(static_cast<Scalar>(params.real("momentum"))),
      weight_decay_(static_cast<Scalar>(params.real("weight_decay"))),
      nesterov_(params.boolean("nesterov")) {}

void SgdOptimizer::reset(Index size) {
  velocity_.setZero(size);
  g_.setZero(size);
  started_ = false;
}

void SgdOptimizer::step(VecRef theta, ConstVecRef grad, Index t) {
  if (velocity_.size() != theta.size()) reset(theta.size());
  const auto lr = static_cast<Scalar>(lr_.at(t));
  g_ = grad + weight_decay_ * theta;
  // torch: the first step sets the buffer to g itself.
  if (!started_) {
    started_ = true;
    velocity_ = g_;
  } else {
    velocity_ = momentum_ * velocity_ + g_;
  }
  if (nesterov_) {
    theta -= lr * (g_ + momentum_ * velocity_);
  } else {
    theta -= lr * velocity_;
  }
}

}  // namespace featurelab::std_pack
