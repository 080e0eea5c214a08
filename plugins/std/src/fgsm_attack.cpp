// One-step attack against the margin gradient.
#include "fgsm_attack.hpp"

namespace featurelab::std_pack {

Schema FgsmAttack::schema() {
  Schema s;
  s.choice("norm", "linf", {"linf", "l2"}, "linf: x − r·sign(∇); l2: x − r·∇/‖∇‖");
  Readout::declare(s);
  return s;
}

FgsmAttack::FgsmAttack(const Params& params, Context& context)
    : linf_(params.str("norm") == "linf"), readout_(Readout::from(params, context)) {}

void FgsmAttack::perturb(Model& model, const Batch& batch, double radius, MatRef X_adv, Rng&) {
  const Index n = batch.n, k = model.outputs();
  out_.resize(n, k);
  dmargin_.resize(n, k);
  grad_.resize(n, batch.dim);
  model.forward(batch.X(), out_);
  readout_.margins(out_, batch.Y(), dmargin_);
  model.input_gradient(batch.X(), dmargin_, grad_);
  const auto r = static_cast<Scalar>(radius);
  if (linf_) {
    X_adv = batch.X() - r * grad_.cwiseSign();
  } else {
    const Vec norms = grad_.rowwise().norm().cwiseMax(Scalar(1e-30));
    X_adv = batch.X().array() - r * (grad_.array().colwise() / norms.array());
  }
}

}  // namespace featurelab::std_pack
