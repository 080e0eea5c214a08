// Learning-rate schedules shared by every optimizer: constant, step decay, cosine; linear warm-up.
#include <featurelab/optimizer.hpp>

#include <algorithm>
#include <cmath>

namespace featurelab {

Schema schedule_schema() {
  Schema s;
  s.real("lr", 0.01, "base learning rate").above(0);
  s.choice("schedule", "constant", {"constant", "step", "cosine"},
           "learning-rate schedule after warm-up: constant; step (times gamma every step_every "
           "steps); cosine (from lr down to final_fraction·lr at the last step)");
  s.integer("step_every", 1000, "step schedule: steps between decays").min(1);
  s.real("gamma", 0.1, "step schedule: factor applied at each decay").above(0).max(1);
  s.real("final_fraction", 0.0, "cosine schedule: final lr as a fraction of lr").range(0, 1);
  s.integer("warmup", 0, "steps of linear warm-up from 0 to lr").min(0);
  return s;
}

LearningRate::LearningRate(const Params& params, Index total_steps)
    : base_(params.real("lr")),
      schedule_(params.str("schedule")),
      step_every_(params.integer("step_every")),
      gamma_(params.real("gamma")),
      warmup_(params.integer("warmup")),
      final_fraction_(params.real("final_fraction")),
      total_(total_steps) {}

double LearningRate::at(Index t) const {
  if (warmup_ > 0 && t < warmup_) return base_ * static_cast<double>(t + 1) / static_cast<double>(warmup_);
  const Index s = t - warmup_;
  if (schedule_ == "step") {
    return base_ * std::pow(gamma_, static_cast<double>(s / std::max<Index>(step_every_, 1)));
  }
  if (schedule_ == "cosine") {
    const Index span = std::max<Index>(total_ - warmup_ - 1, 1);
    const double progress = std::min(1.0, static_cast<double>(s) / static_cast<double>(span));
    const double cosine = 0.5 * (1.0 + std::cos(M_PI * progress));
    return base_ * (final_fraction_ + (1.0 - final_fraction_) * cosine);
  }
  return base_;
}

}  // namespace featurelab
