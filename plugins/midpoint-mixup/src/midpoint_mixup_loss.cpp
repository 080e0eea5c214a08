// J_MM in activation space, one anchor sample i at a time: its N midpoints (Z_i + Z_j)/2 go through
// the model's head as one batch; their gradients accumulate half to i and half to each j.
#include "midpoint_mixup_loss.hpp"

#include <featurelab/error.hpp>

#include <cmath>

namespace midpoint_mixup {

using namespace featurelab;

namespace {
LinearPreactivation& preactivation_model(Model& model) {
  auto* p = dynamic_cast<LinearPreactivation*>(&model);
  if (!p) {
    throw Error("midpoint-mixup-exact needs a model whose pre-activations are affine in x (it implements "
                "featurelab::LinearPreactivation: patch-two-layer, linear); use augment midpoint-mixup (sampled "
                "pairs) with loss cross-entropy for other models");
  }
  return *p;
}
}  // namespace

Schema MidpointMixupLoss::schema() { return Schema{}; }

MidpointMixupLoss::MidpointMixupLoss(const Params&, Context&) {}

void MidpointMixupLoss::check_model(const Model& model, const DataSpec&) const {
  preactivation_model(const_cast<Model&>(model));
  if (model.outputs() < 2) throw Error("midpoint-mixup-exact is a cross-entropy over classes: the model needs >= 2 outputs");
}

Scalar MidpointMixupLoss::evaluate_with_gradient(Model& model, const Batch& batch, VecRef grad) {
  return run(model, batch, &grad);
}

Scalar MidpointMixupLoss::evaluate(Model& model, const Batch& batch) { return run(model, batch, nullptr); }

Scalar MidpointMixupLoss::run(Model& model, const Batch& batch, VecRef* grad) {
  LinearPreactivation& pre = preactivation_model(model);
  const Index n = batch.n, h = pre.preactivation_width(), k = model.outputs();
  Z_.resize(n, h);
  pre.preactivations(batch.X(), Z_);
  if (grad) dZ_.setZero(n, h);
  const ConstIVecMap y = batch.Y();
  const double scale = 1.0 / (2.0 * double(n) * double(n));
  double total = 0;
  pair_Z_.resize(n, h);
  out_.resize(n, k);
  dout_.resize(n, k);
  pair_dZ_.resize(n, h);
  for (Index i = 0; i < n; ++i) {
    pair_Z_ = (Z_.rowwise() + Z_.row(i)) * Scalar(0.5);  // row j: pre-activations of z_ij
    pre.head(pair_Z_, out_);
    // Soft target (e_{y_i} + e_{y_j})/2 for every j; gradient of the log-softmax sum.
    for (Index j = 0; j < n; ++j) {
      const Scalar top = out_.row(j).maxCoeff();
      const Scalar lse = top + std::log((out_.row(j).array() - top).exp().sum());
      total -= double(out_(j, y(i)) - lse) + double(out_(j, y(j)) - lse);
      if (!grad) continue;
      dout_.row(j) = Scalar(2) * (out_.row(j).array() - lse).exp().matrix();
      dout_(j, y(i)) -= 1;
      dout_(j, y(j)) -= 1;
    }
    if (!grad) continue;
    dout_ *= static_cast<Scalar>(scale);
    pre.head_backward(dout_, pair_dZ_);
    // d z_ij / d Z_i = d z_ij / d Z_j = 1/2
    dZ_.row(i) += Scalar(0.5) * pair_dZ_.colwise().sum();
    dZ_ += Scalar(0.5) * pair_dZ_;
  }
  if (grad) pre.preactivation_backward(batch.X(), dZ_, *grad);
  return static_cast<Scalar>(total * scale);
}

}  // namespace midpoint_mixup
