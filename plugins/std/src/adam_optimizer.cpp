// Adam, bias-corrected, as torch.optim.Adam (AdamW: adamw_optimizer.cpp).
#include "adam_optimizer.hpp"

#include <featurelab/threads.hpp>

#include <algorithm>
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
  const Scalar shrink = Scalar(1) - lr * weight_decay_;
  const Scalar c1 = Scalar(1) - std::pow(beta1_, static_cast<Scalar>(count_));
  const Scalar c2 = Scalar(1) - std::pow(beta2_, static_cast<Scalar>(count_));
  // Every value is computed from its own coordinates alone, so chunks give the same bits on any number of threads,
  // provided each chunk starts where a whole-vector pass would have a full vector register: Eigen's vectorised sqrt
  // rounds differently from the scalar one it uses at the end. Chunks are whole blocks of kBlock values; each
  // chunk's statements run while its slices are in cache.
  constexpr Index kBlock = 64;
  const Index size = theta.size(), blocks = (size + kBlock - 1) / kBlock;
  const auto update = [&](Index, Index first_block, Index last_block) {
    const Index first = first_block * kBlock, count = std::min(last_block * kBlock, size) - first;
    auto th = theta.segment(first, count).array();
    auto g = g_.segment(first, count).array();
    auto m = m_.segment(first, count).array();
    auto v = v_.segment(first, count).array();
    if (decoupled_) {
      th *= shrink;
      g = grad.segment(first, count).array();
    } else {
      g = grad.segment(first, count).array() + weight_decay_ * th;
    }
    m = beta1_ * m + (Scalar(1) - beta1_) * g;
    v = beta2_ * v + (Scalar(1) - beta2_) * g.square();
    th -= (lr / c1) * m / ((v / c2).sqrt() + eps_);
  };
  parallel_over_chunks(blocks, update, 5 * size);  // θ, the gradient, g, m and v
}

}  // namespace featurelab::std_pack
