// An attack perturbs inputs within a radius so as to lower the model's margin.
#pragma once

#include <featurelab/model.hpp>

namespace featurelab {

class Attack : public Component {
 public:
  static constexpr Kind kind_id = Kind::Attack;
  static constexpr const char* interface_id = "featurelab.attack/1";

  // X_adv (n×D, presized) receives the perturbed batch; ‖X_adv_i − X_i‖ ≤ radius in the attack's
  // norm for every row.
  virtual void perturb(Model& model, const Batch& batch, double radius, MatRef X_adv,
                       Rng& rng) = 0;
};

// The margin an attack lowers, for outputs out (n×K) and labels y: one output: y·f (y = ±1);
// several: f_y − log Σ_{j≠y} exp f_j (smooth, so its gradient never vanishes at ties).
// Returns the margins (n) and writes d(margin_i)/d(out_i) into dmargin (n×K, presized).
Vec margins(ConstMatRef out, const IVec& labels, MatRef dmargin);
Vec margins(ConstMatRef out, ConstIVecMap labels, MatRef dmargin);

}  // namespace featurelab
