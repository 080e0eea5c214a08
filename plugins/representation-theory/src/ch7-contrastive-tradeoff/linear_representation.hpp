// Model `linear-representation` (ch. 7 §7.2.2): φ(x) = W x, W ∈ R^{k×d} — the representation class Φ of the
// linear analysis (its norm bounds ‖W‖₂ ≤ 1, ‖W‖_F ≤ √r are the trainer's projection, `projected-sgd`).
// The output is the representation itself (n×k). Initialisations:
//   gaussian        W_ij ~ N(0, init_std²)
//   ideal-mixture   Lemma F.3 / Prop. 7.3's optimum on the even mixture, W* = [A*, 0] Mᵀ (Q = I): A* = √α on S,
//                   √β on every P_t, 0 on U, with α = init_alpha and β = min(1, (r − αs)/(T(r − s))); α = 1 gives
//                   β = 1/T, Prop. F.8's optimum for r = 2s (the start of F.104's fine-tuning)
//   ideal-specific  Prop. 7.4's optimum for task init_task: 1 on R_t = S ∪ P_t, 0 elsewhere
// (the ideal inits read the data's feature groups; row j of W carries hidden coordinate j, so k >= |R|).
// With head = true the model also holds block u (1×k), the linear predictor f(φ) = uᵀφ of eq. 7.2 / 7.9; it is
// not part of forward() (the output stays φ): `contrastive-regularized` reads it and writes its gradient.
#pragma once

#include "../contract_setups.hpp"

#include <featurelab/model.hpp>

#include <string>

namespace featurelab::representation_theory_pack {

class LinearRepresentation : public featurelab::Model {
 public:
  static constexpr featurelab::Doc kDoc =
      "Linear representation φ(x) = Wx, W ∈ R^{k×d} (chapter 7, §7.2.2); init gaussian, or the theory's optimum on the "
      "even mixture (Prop 7.3: √α on S, √β on each P_t) or on one task (Prop 7.4); optional linear head u.";
  static featurelab::Schema schema();
  static featurelab::ContractData contract_data() { return multitask_contract(); }
  LinearRepresentation(const featurelab::Params& params, featurelab::Context& context);

  featurelab::Index outputs() const override { return k_; }
  void init(featurelab::Rng& rng) override;
  void forward(featurelab::ConstMatRef X, featurelab::MatRef out) override;                      // X: n×d -> n×k
  void backward(featurelab::ConstMatRef X, featurelab::ConstMatRef dout, featurelab::VecRef grad) override;
  void input_gradient(featurelab::ConstMatRef X, featurelab::ConstMatRef dout, featurelab::MatRef dX) override;

 private:
  featurelab::BlockHandle W_, u_;  // u_ empty without a head
  featurelab::Index k_, d_;
  std::string init_;
  double init_std_;
  featurelab::Mat ideal_;  // k×d: the ideal init, when asked for
};

}  // namespace featurelab::representation_theory_pack
