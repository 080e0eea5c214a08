// SGD with momentum, as torch.optim.SGD (dampening 0): v ← μv + g; step along v or g + μv.
#include "sgd_optimizer.hpp"

#include <featurelab/threads.hpp>

#include <algorithm>

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
  const bool first = !started_;  // torch: the first step sets the buffer to g itself
  started_ = true;
  // One pass, chunk by chunk on the job's threads, each chunk's statements while its slices are in cache.
  // Every value comes from its own coordinates alone and chunks are whole blocks of kBlock values (each
  // starts where a whole-vector pass has a full vector register), so the bits are those of three
  // whole-vector passes on any number of threads.
  constexpr Index kBlock = 64;
  const Index size = theta.size(), blocks = (size + kBlock - 1) / kBlock;
  const auto update = [&](Index, Index first_block, Index last_block) {
    const Index begin = first_block * kBlock, count = std::min(last_block * kBlock, size) - begin;
    auto th = theta.segment(begin, count);
    auto g = g_.segment(begin, count);
    auto v = velocity_.segment(begin, count);
    g = grad.segment(begin, count) + weight_decay_ * th;
    if (first) {
      v = g;
    } else {
      v = momentum_ * v + g;
    }
    if (nesterov_) {
      th -= lr * (g + momentum_ * v);
    } else {
      th -= lr * v;
    }
  };
  parallel_over_chunks(blocks, update, 4 * size);  // θ, the gradient, g and v
}

}  // namespace featurelab::std_pack
