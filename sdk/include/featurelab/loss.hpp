// A loss evaluates the objective and its gradient over a model's parameters for a batch.
//
// evaluate_with_gradient() is the primary call: value and gradient share intermediates. Losses
// that only look at the model's outputs derive from OutputLoss and implement one function of the
// outputs; losses that run the model several times (two views, mixed pairs) derive from Loss.
#pragma once

#include <featurelab/model.hpp>

namespace featurelab {

class Loss : public Component {
 public:
  static constexpr Kind kind_id = Kind::Loss;
  static constexpr const char* interface_id = "featurelab.loss/3";  // 3: separable and row_block became SeparableLoss (ABI 12)

  // Mean loss over the batch; grad (model.trainable_size()) receives its gradient.
  virtual Scalar evaluate_with_gradient(Model& model, const Batch& batch, VecRef grad) = 0;
  virtual Scalar evaluate(Model& model, const Batch& batch) = 0;
  // Throws Error with a fix when the model's outputs cannot feed this loss.
  virtual void check_model(const Model& model, const DataSpec& data) const;
};

class OutputLoss : public Loss {
 public:
  Scalar evaluate_with_gradient(Model& model, const Batch& batch, VecRef grad) override;
  Scalar evaluate(Model& model, const Batch& batch) override;

  // out: n×K model outputs -> mean loss, and dout = d(mean loss)/d(out), presized n×K.
  virtual Scalar value_and_gradient(ConstMatRef out, const Batch& batch, MatRef dout) const = 0;
  virtual Scalar value(ConstMatRef out, const Batch& batch) const;
  // A loss that is a mean over rows also derives from SeparableLoss (capabilities.hpp): a model offering
  // FusedStep then runs forward, loss and backward block by block.

 protected:
  Mat out_;   // reused buffers: no allocation while the batch size is stable
  Mat dout_;
  mutable Mat dout_scratch_;  // for value(): the default computes the gradient and drops it
};

}  // namespace featurelab
