// Hard thresholding with nth_element over a preallocated index vector: O(p) per step.
#include "iht_rank.hpp"

#include <featurelab/error.hpp>

#include <algorithm>
#include <cmath>
#include <numeric>

namespace featurelab::representation_theory_pack {

Schema IhtRank::schema() {
  Schema s = schedule_schema();
  s.integer("budget", 1, "B_rank: how many parameters stay nonzero after each step").min(1);
  return s;
}

IhtRank::IhtRank(const Params& params, Context& context)
    : lr_(params, context.total_steps), budget_(params.integer("budget")) {}

void IhtRank::reset(Index size) {
  if (budget_ > size) {
    throw Error("optimizer.budget = " + std::to_string(budget_) + " exceeds the model's " + std::to_string(size) +
                " trainable parameters; lower it");
  }
  order_.resize(static_cast<std::size_t>(size));
}

void IhtRank::step(VecRef theta, ConstVecRef grad, Index t) {
  theta.noalias() -= static_cast<Scalar>(lr_.at(t)) * grad;
  if (budget_ >= theta.size()) return;
  std::iota(order_.begin(), order_.end(), Index{0});
  // Largest magnitudes first; ties broken by index so a run is reproducible.
  const auto larger = [&](Index a, Index b) {
    const Scalar ma = std::abs(theta(a)), mb = std::abs(theta(b));
    return ma > mb || (ma == mb && a < b);
  };
  std::nth_element(order_.begin(), order_.begin() + budget_, order_.end(), larger);
  for (auto it = order_.begin() + budget_; it != order_.end(); ++it) theta(*it) = 0;
}

}  // namespace featurelab::representation_theory_pack
