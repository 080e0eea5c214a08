#include "contrastive_regularized.hpp"

#include <featurelab/error.hpp>

namespace featurelab::representation_theory_pack {

Schema ContrastiveRegularized::schema() {
  Schema s;
  s.real("lambda", 1.0, "λ: the weight of the contrastive term (the chapter: 0.1 for MoCo v2, 1.0 for CLIP, MoCo v3, "
                        "SimCSE; 0 = plain fine-tuning)").min(0);
  ContrastiveTerm::add_schema(s);
  return s;
}

ContrastiveRegularized::ContrastiveRegularized(const Params& params, Context&)
    : term_(params, "contrastive-regularized"), lambda_(params.real("lambda")) {}

void ContrastiveRegularized::check_model(const Model& model, const DataSpec&) const {
  const ParamBlock* u = model.find_block("u");
  if (!u || !u->trainable || u->rows != 1 || u->cols != model.outputs()) {
    throw Error("contrastive-regularized trains a linear head u (1×k) on the representation: use "
                "model.use = \"linear-representation\" with head = true");
  }
}

Scalar ContrastiveRegularized::run(Model& model, const Batch& batch, VecRef* grad) {
  const Index K = term_.layout(batch);
  if (batch.t_cols < 2) {
    throw Error("contrastive-regularized: the batch carries no labels (column 1 of T); the data needs targets "
                "(multitask-linear writes y = u_t*ᵀ z_{R_t})");
  }
  const Index k = model.outputs();
  F_.resize(batch.n, k);
  dF_.resize(batch.n, k);
  model.forward(batch.X(), F_);
  const ConstMatMap u = static_cast<const Model&>(model).block("u");
  // The prediction term on the anchors: r_k = uᵀφ(x_k) − y_k.
  residual_.noalias() = F_.topRows(K) * u.row(0).transpose();
  residual_ -= batch.T().col(1).head(K);
  const Scalar inv_k = Scalar(1) / static_cast<Scalar>(K);
  const Scalar prediction = Scalar(0.5) * residual_.squaredNorm() * inv_k;
  MatRef dF = dF_;
  const Scalar contrastive = term_.value(F_, K, grad ? &dF : nullptr);
  if (!grad) return prediction + static_cast<Scalar>(lambda_) * contrastive;
  // d/dφ(x_k) of the prediction term: r_k u/K; of the head: Σ_k r_k φ(x_k)/K.
  dF_ *= static_cast<Scalar>(lambda_);
  residual_ *= inv_k;
  dF_.topRows(K).noalias() += residual_ * u.row(0);
  model.backward(batch.X(), dF_, *grad);
  const ParamBlock* ub = model.find_block("u");
  grad->segment(ub->offset, k).noalias() += F_.topRows(K).transpose() * residual_;
  return prediction + static_cast<Scalar>(lambda_) * contrastive;
}

Scalar ContrastiveRegularized::evaluate_with_gradient(Model& model, const Batch& batch, VecRef grad) {
  return run(model, batch, &grad);
}

Scalar ContrastiveRegularized::evaluate(Model& model, const Batch& batch) { return run(model, batch, nullptr); }

}  // namespace featurelab::representation_theory_pack
