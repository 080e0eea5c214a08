// Output losses: forward, loss of the outputs, backward; buffers reused across steps.
#include <featurelab/loss.hpp>

#include <featurelab/capabilities.hpp>

namespace featurelab {

void Loss::check_model(const Model&, const DataSpec&) const {}

Scalar OutputLoss::evaluate_with_gradient(Model& model, const Batch& batch, VecRef grad) {
  // The fused step when both offer it (capabilities.hpp).
  if (const auto* rows = dynamic_cast<const SeparableLoss*>(this)) {
    if (auto* fused = dynamic_cast<FusedStep*>(&model)) {
      Scalar value = 0;
      if (fused->fused_step(batch, *rows, grad, value)) return value;
    }
  }
  const Index k = model.outputs();
  out_.resize(batch.n, k);
  dout_.resize(batch.n, k);
  forward_batch(model, batch, out_);
  const Scalar value = value_and_gradient(out_, batch, dout_);
  backward_batch(model, batch, dout_, grad);
  return value;
}

Scalar OutputLoss::evaluate(Model& model, const Batch& batch) {
  out_.resize(batch.n, model.outputs());
  forward_batch(model, batch, out_);
  return value(out_, batch);
}

Scalar OutputLoss::value(ConstMatRef out, const Batch& batch) const {
  dout_scratch_.resize(out.rows(), out.cols());
  return value_and_gradient(out, batch, dout_scratch_);
}

}  // namespace featurelab
