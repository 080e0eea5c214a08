// Loss `contrastive-regularized` (ch. 7, eq. 7.9) over any model whose output is the representation φ:
//     (1/K) Σ_k ½(uᵀφ(x_k) − y_k)² + λ·L_con
// the chapter's fine-tuning objective: the prediction loss ℓ_c (squared, the labels of §7.2.2 are real-valued) of the
// linear head u (the model's block u: linear-representation head = true) on the labelled anchors (target in column 1
// of T, written by resample-spurious from the data's targets), plus λ times the contrastive loss L_con of
// contrastive-inner-product on pairs made from the same inputs by the transformation. λ = 0 is plain fine-tuning.
// One forward and one backward pass over all 2K + N rows of the view layout (see contrastive_term.hpp).
#pragma once

#include "../contract_setups.hpp"

#include "contrastive_term.hpp"

#include <featurelab/loss.hpp>

namespace featurelab::representation_theory_pack {

class ContrastiveRegularized : public featurelab::Loss {
 public:
  static constexpr featurelab::Doc kDoc =
      "Fine-tuning with contrastive regularisation (chapter 7, Eq 7.9): ½(uᵀφ(x) − y)² on the labelled anchors with the "
      "model's linear head u, plus λ × the contrastive loss on their transformed pairs.";
  static featurelab::Schema schema();
  static featurelab::ContractData contract_data() { return multitask_contract(); }
  ContrastiveRegularized(const featurelab::Params& params, featurelab::Context& context);
  featurelab::Scalar evaluate_with_gradient(featurelab::Model& model, const featurelab::Batch& batch,
                                            featurelab::VecRef grad) override;
  featurelab::Scalar evaluate(featurelab::Model& model, const featurelab::Batch& batch) override;
  void check_model(const featurelab::Model& model, const featurelab::DataSpec& data) const override;

 private:
  featurelab::Scalar run(featurelab::Model& model, const featurelab::Batch& batch, featurelab::VecRef* grad);

  ContrastiveTerm term_;
  double lambda_;
  featurelab::Mat F_, dF_;
  featurelab::Vec residual_;  // K: uᵀφ(x_k) − y_k
};

}  // namespace featurelab::representation_theory_pack
