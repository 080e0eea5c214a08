// Attack `pgd-l2`: ℓ2 projected gradient descent on the margin.
#pragma once

#include <featurelab/attack.hpp>
#include <featurelab/readout.hpp>

namespace featurelab::std_pack {

class PgdL2Attack : public Attack {
 public:
  static constexpr Doc kDoc =
      "ℓ2 PGD: steps of size step_size·radius along −∇margin/‖∇margin‖, projected onto the ℓ2 ball; keeps each "
      "sample's lowest-margin iterate. Margin: y·f (one output) or f_y − logsumexp_{j≠y} f_j.";
  static Schema schema();
  PgdL2Attack(const Params& params, Context& context);
  void perturb(Model& model, const Batch& batch, double radius, MatRef X_adv, Rng& rng) override;

 private:
  Index steps_;
  double step_size_;
  bool random_start_;
  Readout readout_;
  Mat X_, out_, dmargin_, grad_, best_;
};

}  // namespace featurelab::std_pack
