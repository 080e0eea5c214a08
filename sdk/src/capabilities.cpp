// The capabilities' destructors, out of line: their type information lives once, in the SDK's library, so a
// dynamic_cast from the core or another plugin finds a plugin's capability. And the dispatch to CodedInputs.
#include <featurelab/capabilities.hpp>
#include <featurelab/model.hpp>

namespace featurelab {

SeparableLoss::~SeparableLoss() = default;
FusedStep::~FusedStep() = default;
WeighsPatchCounts::~WeighsPatchCounts() = default;
CodedInputs::~CodedInputs() = default;

void forward_batch(Model& model, const Batch& batch, MatRef out) {
  if (batch.has_codes()) {
    if (auto* coded = dynamic_cast<CodedInputs*>(&model); coded && coded->forward_coded(batch, out)) return;
  }
  model.forward(batch.X(), out);
}

void backward_batch(Model& model, const Batch& batch, ConstMatRef dout, VecRef grad) {
  if (batch.has_codes()) {
    if (auto* coded = dynamic_cast<CodedInputs*>(&model); coded && coded->backward_coded(batch, dout, grad)) return;
  }
  model.backward(batch.X(), dout, grad);
}

}  // namespace featurelab
