// Callback `gradient-clipping`: rescales each step's gradient to an ℓ2 norm of at most max_norm before the update,
// g ← g · min(1, max_norm/‖g‖) over every trainable parameter at once (PyTorch's clip_grad_norm_), whatever the
// trainer and optimizer (callback.hpp). Metrics at each evaluation, over the steps since the one before:
// gradient-clipping.clipped (the fraction of steps clipped) and gradient-clipping.norm (the mean norm before
// clipping).
#pragma once

#include <featurelab/callback.hpp>
#include <featurelab/params.hpp>

namespace featurelab::std_pack {

class GradientClippingCallback : public Callback {
 public:
  static constexpr Doc kDoc =
      "Rescales each step's gradient to an ℓ2 norm of at most max_norm (over all trainable parameters) before the "
      "update; records gradient-clipping.clipped and norm.";
  static Schema schema();
  static std::vector<std::string> metrics() { return {"clipped", "norm"}; }
  GradientClippingCallback(const Params& params, Context& context);

  void begin(TrainerHost& host) override;
  void before_update(TrainerHost& host, Index step, VecRef grad) override;
  bool after_evaluation(TrainerHost& host, Index step, const StepMetrics& metrics) override;

 private:
  double max_norm_;
  Index steps_ = 0;     // since the last evaluation
  Index clipped_ = 0;
  double norms_ = 0;    // their sum
};

}  // namespace featurelab::std_pack
