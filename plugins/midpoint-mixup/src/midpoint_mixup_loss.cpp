// Exact pair mixing in activation space, one anchor sample i and one node λ at a time: the N mixes
// λZ_i + (1−λ)Z_j go through the model's head as one batch; their gradients accumulate λ to i and
// 1−λ to each j.
#include "midpoint_mixup_loss.hpp"

#include <featurelab/error.hpp>

#include <cmath>

namespace midpoint_mixup {

using namespace featurelab;

namespace {
LinearPreactivation& preactivation_model(Model& model) {
  auto* p = dynamic_cast<LinearPreactivation*>(&model);
  if (!p) {
    throw Error("the exact mixup losses need a model whose pre-activations are affine in x (it implements "
                "featurelab::LinearPreactivation: patch-two-layer, linear); use augment mixup or midpoint-mixup "
                "(sampled pairs) with loss cross-entropy for other models");
  }
  return *p;
}
}  // namespace

void ExactPairMixingLoss::check_model(const Model& model, const DataSpec&) const {
  preactivation_model(const_cast<Model&>(model));
  if (model.outputs() < 2) throw Error("the exact mixup losses are cross-entropies over classes: the model needs >= 2 outputs");
}

Scalar ExactPairMixingLoss::evaluate_with_gradient(Model& model, const Batch& batch, VecRef grad) {
  return run(model, batch, &grad);
}

Scalar ExactPairMixingLoss::evaluate(Model& model, const Batch& batch) { return run(model, batch, nullptr); }

Scalar ExactPairMixingLoss::run(Model& model, const Batch& batch, VecRef* grad) {
  LinearPreactivation& pre = preactivation_model(model);
  const Index n = batch.n, h = pre.preactivation_width(), k = model.outputs();
  Z_.resize(n, h);
  pre.preactivations(batch.X(), Z_);
  if (grad) dZ_.setZero(n, h);
  const ConstIVecMap y = batch.Y();
  if (n > 0 && (y.minCoeff() < 0 || y.maxCoeff() >= k)) {
    throw Error("a label is outside the model's " + std::to_string(k) + " outputs; set model.outputs to the number of classes");
  }
  const double scale = 1.0 / (double(n) * double(n));
  double total = 0;
  pair_Z_.resize(n, h);
  out_.resize(n, k);
  dout_.resize(n, k);
  pair_dZ_.resize(n, h);
  for (Index q = 0; q < lambdas_.nodes.size(); ++q) {
    const auto lambda = static_cast<Scalar>(lambdas_.nodes(q)), mu = 1 - lambda;
    const double weight = lambdas_.weights(q);
    for (Index i = 0; i < n; ++i) {
      pair_Z_ = (mu * Z_).rowwise() + lambda * Z_.row(i);  // row j: pre-activations of z_ij
      pre.head(pair_Z_, out_);
      // Soft target λ e_{y_i} + (1−λ) e_{y_j} for every j; the gradient of the log-softmax is
      // softmax − target.
      double anchor_total = 0;
      for (Index j = 0; j < n; ++j) {
        const Scalar top = out_.row(j).maxCoeff();
        const Scalar lse = top + std::log((out_.row(j).array() - top).exp().sum());
        anchor_total -= double(lambda * (out_(j, y(i)) - lse) + mu * (out_(j, y(j)) - lse));
        if (!grad) continue;
        dout_.row(j) = (out_.row(j).array() - lse).exp().matrix();
        dout_(j, y(i)) -= lambda;
        dout_(j, y(j)) -= mu;
      }
      total += weight * anchor_total;
      if (!grad) continue;
      dout_ *= static_cast<Scalar>(weight * scale);
      pre.head_backward(dout_, pair_dZ_);
      dZ_.row(i) += lambda * pair_dZ_.colwise().sum();  // d z_ij / d Z_i = λ
      dZ_ += mu * pair_dZ_;                             // d z_ij / d Z_j = 1 − λ
    }
  }
  if (grad) pre.preactivation_backward(batch.X(), dZ_, *grad);
  return static_cast<Scalar>(total * scale);
}

Schema MidpointMixupLoss::schema() { return Schema{}; }

MidpointMixupLoss::MidpointMixupLoss(const Params&, Context&) : ExactPairMixingLoss(beta_quadrature(1.0, 1)) {}

Schema MixupExactLoss::schema() {
  Schema s;
  s.real("alpha", 1.0, "λ ~ Beta(alpha, alpha); 1 is uniform mixup (Prop. 3.3)").above(0);
  s.integer("quadrature_nodes", 64, "Gauss–Jacobi nodes for E_λ (exact for polynomials of degree < 2·nodes)")
      .range(1, 1000);
  return s;
}

MixupExactLoss::MixupExactLoss(const Params& params, Context&)
    : ExactPairMixingLoss(beta_quadrature(params.real("alpha"), static_cast<int>(params.integer("quadrature_nodes")))) {}

}  // namespace midpoint_mixup
