// A regularizer adds a penalty R(θ; batch) to whatever loss a pipeline trains, from TOML
// ([[regularizer]] tables), for any model and loss: weight penalties read named parameter blocks,
// penalties of features read a model hook point and backpropagate through Model::hook_backward.
//
// The trainer calls TrainerHost::regularize() once per step after the loss gradient; the host
// sums every regularizer's value and adds its gradient in place, so a pipeline without
// regularizers costs nothing.
#pragma once

#include <featurelab/model.hpp>

namespace featurelab {

class Regularizer : public Component {
 public:
  static constexpr Kind kind_id = Kind::Regularizer;
  static constexpr const char* interface_id = "featurelab.regularizer/1";

  // Once, before training: check that the model has what this penalty reads (blocks, hook
  // points), with an error that names the fix; size work buffers.
  virtual void bind(Model& model) = 0;
  // The penalty at this step for the step's batch (its inputs, after augmentation); ADDS its
  // gradient to grad (model.trainable_size()). Returns 0 and adds nothing while switched off.
  virtual Scalar add_penalty(Model& model, const Batch& batch, Index step, VecRef grad) = 0;
  // The penalty without its gradient (probes, logging).
  virtual Scalar penalty(Model& model, const Batch& batch, Index step) = 0;
};

}  // namespace featurelab
