// Loss `contrastive-inner-product` (ch. 7, eq. 7.1, F.38) over any model whose output is the representation φ:
//     L_con = (1/K) Σ_k ℓ(φ(x_k)ᵀ(φ(x⁺_k) − n_k))
// one forward and one backward pass over all 2K + N rows of the view layout (see contrastive_term.hpp for the
// objective and its gradient).
#pragma once

#include "../contract_setups.hpp"

#include "contrastive_term.hpp"

#include <featurelab/loss.hpp>

namespace featurelab::representation_theory_pack {

class ContrastiveInnerProduct : public featurelab::Loss {
 public:
  static constexpr featurelab::Doc kDoc =
      "Contrastive loss ℓ(φ(x)ᵀ(φ(x⁺) − n)) over view pairs (chapter 7, Eq 7.1 / F.38): ℓ logistic or linear (Thm 7.1), the "
      "negative term expected (E φ(x⁻) = 0), batch-mean or single; gradient through every branch.";
  static featurelab::Schema schema();
  static featurelab::ContractData contract_data() { return multitask_contract(); }
  ContrastiveInnerProduct(const featurelab::Params& params, featurelab::Context& context);
  featurelab::Scalar evaluate_with_gradient(featurelab::Model& model, const featurelab::Batch& batch,
                                            featurelab::VecRef grad) override;
  featurelab::Scalar evaluate(featurelab::Model& model, const featurelab::Batch& batch) override;

 private:
  ContrastiveTerm term_;
  featurelab::Mat F_, dF_;
};

}  // namespace featurelab::representation_theory_pack
