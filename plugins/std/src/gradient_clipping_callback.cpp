// Gradient clipping by the global ℓ2 norm (gradient_clipping_callback.hpp).
#include "gradient_clipping_callback.hpp"

#include <featurelab/trainer.hpp>

#include <cmath>

namespace featurelab::std_pack {

Schema GradientClippingCallback::schema() {
  Schema s;
  s.real("max_norm", 1.0, "the largest ℓ2 norm of the whole gradient an update uses").above(0);
  return s;
}

GradientClippingCallback::GradientClippingCallback(const Params& params, Context&) : max_norm_(params.real("max_norm")) {}

void GradientClippingCallback::begin(TrainerHost&) {
  steps_ = 0;
  clipped_ = 0;
  norms_ = 0;
}

void GradientClippingCallback::before_update(TrainerHost&, Index, VecRef grad) {
  // In double: a sum of squares over every parameter, whose value decides whether the step is clipped.
  const double norm = std::sqrt(grad.template cast<double>().squaredNorm());
  ++steps_;
  norms_ += norm;
  if (norm > max_norm_) {
    ++clipped_;
    grad *= static_cast<Scalar>(max_norm_ / norm);
  }
}

bool GradientClippingCallback::after_evaluation(TrainerHost& host, Index step, const StepMetrics&) {
  if (steps_ == 0) return true;  // step 0, or two evaluations at one step
  host.record(step, "gradient-clipping.clipped", static_cast<double>(clipped_) / static_cast<double>(steps_));
  host.record(step, "gradient-clipping.norm", norms_ / static_cast<double>(steps_));
  steps_ = 0;
  clipped_ = 0;
  norms_ = 0;
  return true;
}

}  // namespace featurelab::std_pack
