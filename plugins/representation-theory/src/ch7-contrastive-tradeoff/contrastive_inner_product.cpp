#include "contrastive_inner_product.hpp"

namespace featurelab::representation_theory_pack {

Schema ContrastiveInnerProduct::schema() {
  Schema s;
  ContrastiveTerm::add_schema(s);
  return s;
}

ContrastiveInnerProduct::ContrastiveInnerProduct(const Params& params, Context&)
    : term_(params, "contrastive-inner-product") {}

Scalar ContrastiveInnerProduct::evaluate_with_gradient(Model& model, const Batch& batch, VecRef grad) {
  const Index K = term_.layout(batch);
  F_.resize(batch.n, model.outputs());
  dF_.resize(batch.n, model.outputs());
  model.forward(batch.X(), F_);
  MatRef dF = dF_;
  const Scalar loss = term_.value(F_, K, &dF);
  model.backward(batch.X(), dF_, grad);
  return loss;
}

Scalar ContrastiveInnerProduct::evaluate(Model& model, const Batch& batch) {
  const Index K = term_.layout(batch);
  F_.resize(batch.n, model.outputs());
  model.forward(batch.X(), F_);
  return term_.value(F_, K, nullptr);
}

}  // namespace featurelab::representation_theory_pack
