// Loss `hinge`: binary and multiclass (Crammer–Singer) hinge, optionally class-balanced.
// Returns the mean over the batch and writes d(mean)/d(out).
#pragma once

#include <featurelab/loss.hpp>
#include <featurelab/tunable.hpp>

namespace featurelab::std_pack {

class HingeLoss : public OutputLoss, public Tunable {
 public:
  static constexpr Doc kDoc =
      "Hinge loss max(0, margin − y f(x)) for one output; multiclass (Crammer–Singer) "
      "max(0, margin + max_{j≠y} f_j − f_y) for several; optionally class-balanced (α_y = 1/(K·Pr̂[y]), Shi 2024 "
      "App. A.8; Tunable \"class_balance\").";
  static Schema schema();
  HingeLoss(const Params& params, Context& context);
  Scalar value_and_gradient(ConstMatRef out, const Batch& batch, MatRef dout) const override;
  void tune(const std::string& setting, double value) override;

 private:
  Scalar margin_;
  bool balanced_;
};

}  // namespace featurelab::std_pack
