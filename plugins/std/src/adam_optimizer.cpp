// Adam, bias-corrected, as torch.optim.Adam (AdamW: adamw_optimizer.cpp).
#include "adam_optimizer.hpp"

#include <cmath>

namespace featurelab::std_pack {

Schema AdamOptimizer::adam_schema(double weight_decay, const char* decay_doc) {
  Schema s = schedule_schema();
  s.real("lr", 0.001, "base learning rate").above(0);
  s.real("beta1", 0.9, "first-moment decay β1").min(0).below(1);
  s.real("beta2", 0.999, "second-moment decay β2").min(0).below(1);
  s.real("eps", 1e-8, "ε added to the root of the second moment").above(0);
  s.real("weight_decay", weight_decay, decay_doc).min(0);
  return s;
}

Schema AdamOptimizer::schema() { return adam_schema(0.0, "coupled weight decay (added to the gradient)"); }

AdamOptimizer::AdamOptimizer(const Params& params, Context& context, bool decoupled)
    : lr_(params, context.total_steps),
      beta1_(static_cast<Scalar>(params.real("beta1"))),
      beta2_(static_cast<Scalar>(params.real("beta2"))),
      eps_(static_cast<Scalar>(params.real("eps"))),
      weight_decay_(static_cast<Scalar>(params.real("weight_decay"))),
      decoupled_(decoupled) {}

void AdamOptimizer::reset(Index size) {
  m_.setZero(size);
  v_.setZero(size);
  g_.setZero(size);
  count_ = 0;
}

void AdamOptimizer::step(VecRef theta, ConstVecRef grad, Index t) {
  if (m_.size() != theta.size()) reset(theta.size());
  const auto lr = static_cast<Scalar>(lr_.at(t));
  ++count_;
  if (decoupled_) {
    theta *= Scalar(1) - lr * weight_decay_;
    g_ = grad;
  } else {
    g_ = grad + weight_decay_ * theta;
  }
  m_ = beta1_ * m_ + (Scalar(1) - beta1_) * g_;
  v_ = beta2_ * v_ + (Scalar(1) - beta2_) * g_.cwiseAbs2();
  const Scalar c1 = Scalar(1) - std::pow(beta1_, static_cast<Scalar>(count_));
  const Scalar c2 = Scalar(1) - std::pow(beta2_, static_cast<Scalar>(count_));
  theta.array() -= (lr / c1) * m_.array() / ((v_.array() / c2).sqrt() + eps_);
}

}  // namespace featurelab::std_pack
