// Attack `fgsm`: the fast gradient (sign) method.
#pragma once

#include <featurelab/attack.hpp>
#include <featurelab/readout.hpp>

namespace featurelab::std_pack {

class FgsmAttack : public Attack {
 public:
  static constexpr Doc kDoc =
      "Fast gradient (sign) method: one step of length radius against the margin gradient, in ℓ∞ (sign) or ℓ2.";
  static Schema schema();
  FgsmAttack(const Params& params, Context& context);
  void perturb(Model& model, const Batch& batch, double radius, MatRef X_adv, Rng& rng) override;

 private:
  bool linf_;
  Readout readout_;
  Mat out_, dmargin_, grad_;
};

}  // namespace featurelab::std_pack
