// Similarities as one GEMM (anchors × negatives) plus a row-wise dot product for the positives; a stable
// log-sum-exp per anchor; the softmax weights give the gradient as one more GEMM.
#include "info_nce_loss.hpp"

#include <featurelab/error.hpp>
#include <featurelab/views.hpp>

#include <cmath>

namespace featurelab::std_pack {

Schema InfoNceLoss::schema() {
  Schema s;
  s.real("temperature", 1.0, "τ (the theory: polylog(d))").above(0);
  s.choice("similarity", "dot", {"dot", "cosine"},
           "dot: ⟨f(x), f(x′)⟩ unnormalised (the paper, footnote 2); cosine: of the normalised representations (SimCLR)");
  s.choice("gradient", "stop-gradient", {"stop-gradient", "full"},
           "stop-gradient: differentiate the anchor branch only (the paper's Eq. 2.1); full: the gradient of the loss "
           "through every branch");
  return s;
}

InfoNceLoss::InfoNceLoss(const Params& params, Context&)
    : tau_(params.real("temperature")),
      cosine_(params.str("similarity") == "cosine"),
      full_(params.str("gradient") == "full") {}

Index InfoNceLoss::layout(const Batch& batch) const {
  const std::string fix =
      "; " + name() + " reads view pairs: put a view augment in the pipeline ([[augment]] use = \"random-mask\" or "
      "\"identity-views\"), which writes K anchors, K positives and N negatives and marks them";
  if (!batch.has_targets() || batch.t_cols != 1) throw Error(name() + ": the batch carries no view roles" + fix);
  const Index K = view_pairs(batch);
  if (K < 1 || batch.n - 2 * K < 1) {
    throw Error(name() + ": the batch's rows are not K anchors, K positives and N >= 1 negatives" + fix);
  }
  return K;
}

void InfoNceLoss::represent(Model& model, const Batch& batch, Index K) {
  const ConstMatMap X = batch.X();
  const Index n = batch.n, m = model.outputs();
  F_.resize(n, m);
  if (full_) {
    model.forward(X, F_);
    return;
  }
  // Positives and negatives first, the anchors last: the model's cache then holds the anchors for backward().
  model.forward(X.bottomRows(n - K), F_.bottomRows(n - K));
  model.forward(X.topRows(K), F_.topRows(K));
}

Scalar InfoNceLoss::loss_from_representations(Index K, bool with_gradient) {
  const Index n = F_.rows(), N = n - 2 * K, m = F_.cols();
  const Mat* U = &F_;
  if (cosine_) {
    norms_ = F_.rowwise().norm().cwiseMax(Scalar(1e-12));
    U_ = F_.array().colwise() / norms_.array();
    U = &U_;
  }
  const auto Ua = U->topRows(K), Up = U->middleRows(K, K), Un = U->bottomRows(N);
  const Scalar inv_tau = static_cast<Scalar>(1 / tau_);
  S_.resize(K, 1 + N);
  S_.col(0) = (Ua.array() * Up.array()).rowwise().sum().matrix() * inv_tau;
  S_.rightCols(N).noalias() = Ua * Un.transpose();
  S_.rightCols(N) *= inv_tau;
  // Stable log-sum-exp per anchor; S_ becomes the softmax weights ℓ′.
  row_max_ = S_.rowwise().maxCoeff();
  S_.colwise() -= row_max_;
  positive_ = S_.col(0);  // Sim⁺/τ − max
  S_.array() = S_.array().exp();
  lse_ = S_.rowwise().sum().array().log().matrix();
  const double loss = tau_ * static_cast<double>((lse_ - positive_).sum()) / static_cast<double>(K);
  S_.array().colwise() /= S_.rowwise().sum().array();
  if (!with_gradient) return static_cast<Scalar>(loss);

  // d𝓛_k/dU(x⁺_k) = −(1 − ℓ′_p) U(x⁺⁺_k) + Σ_s ℓ′_s U(x_s)   (τ cancels), and with full gradients
  // d𝓛_k/dU(x⁺⁺_k) = −(1 − ℓ′_p) U(x⁺_k),   dΣ_k𝓛_k/dU(x_s) = Σ_k ℓ′_{ks} U(x⁺_k); all over K for the mean.
  const Scalar inv_k = Scalar(1) / static_cast<Scalar>(K);
  dU_.resize(full_ ? n : K, m);
  dU_.topRows(K).noalias() = S_.rightCols(N) * Un;
  dU_.topRows(K) -= (Up.array().colwise() * (Scalar(1) - S_.col(0).array())).matrix();
  if (full_) {
    dU_.middleRows(K, K) = -(Ua.array().colwise() * (Scalar(1) - S_.col(0).array())).matrix();
    dU_.bottomRows(N).noalias() = S_.rightCols(N).transpose() * Ua;
  }
  dU_ *= inv_k;
  if (!cosine_) return static_cast<Scalar>(loss);
  // Through u = f/‖f‖: df = (du − (du·u) u)/‖f‖, row by row.
  const Index rows = dU_.rows();
  dots_ = (dU_.array() * U_.topRows(rows).array()).rowwise().sum();
  dU_ -= (U_.topRows(rows).array().colwise() * dots_.array()).matrix();
  dU_.array().colwise() /= norms_.head(rows).array();
  return static_cast<Scalar>(loss);
}

Scalar InfoNceLoss::evaluate_with_gradient(Model& model, const Batch& batch, VecRef grad) {
  const Index K = layout(batch);
  represent(model, batch, K);
  const Scalar loss = loss_from_representations(K, true);
  const ConstMatMap X = batch.X();
  if (full_) {
    model.backward(X, dU_, grad);
  } else {
    model.backward(X.topRows(K), dU_, grad);
  }
  return loss;
}

Scalar InfoNceLoss::evaluate(Model& model, const Batch& batch) {
  const Index K = layout(batch);
  represent(model, batch, K);
  return loss_from_representations(K, false);
}

}  // namespace featurelab::std_pack
