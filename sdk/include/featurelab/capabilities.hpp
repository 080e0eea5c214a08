// Optional capabilities: what a model or a loss may offer beyond its kind's interface, and the core (or another
// component) asks for with dynamic_cast, as LinearPreactivation (preactivation.hpp) and Tunable are asked for.
// The base interfaces (Model, Loss) stay as they are when a new fast path is added: the path becomes one more
// capability here, and a plugin that does not offer it keeps working, on the general path.
//
//   SeparableLoss      a loss that is a mean over rows of a function of each row's outputs (cross-entropy,
//                      logistic): its share of any block of rows can be computed alone.
//   FusedStep          a model that runs a training step in one pass over the batch for such a loss.
//   WeighsPatchCounts  a model that weighs each stored patch by DataShape::patch_counts (multi-view data whose
//                      equal noise patches are stored once); the core refuses compressed patch data otherwise.
//   CodedInputs        a model whose products with X can run on a batch's input codes, X = C·B (dataset.hpp):
//                      C·(B·Wᵀ) and (Gᵀ·C)·B instead of X·Wᵀ and Gᵀ·X.
#pragma once

#include <featurelab/dataset.hpp>
#include <featurelab/types.hpp>

namespace featurelab {

class SeparableLoss {
 public:
  virtual ~SeparableLoss();
  // Rows [first, first + out.rows()) of the batch: dout = d(mean loss over `total` rows)/d(out) for them, and
  // their summed loss (not divided by total) returned. Keeps no mutable state: a model calls it from several
  // threads at once.
  virtual double row_block(ConstMatRef out, const Batch& batch, Index first, Index total, MatRef dout) const = 0;
};

class FusedStep {
 public:
  virtual ~FusedStep();
  // A training step in one pass over the batch's rows: each block of rows runs forward, its share of the loss
  // (rows.row_block) and backward while it is in cache, so X is read once per step, not twice. Writes grad as
  // Model::backward does, sets value to the mean loss and returns true, with the same bits on any number of
  // threads; returns false (nothing written) when it does not apply now (a frozen block, an activation it
  // cannot fuse): the loss then runs forward and backward.
  virtual bool fused_step(const Batch& batch, const SeparableLoss& rows, VecRef grad, Scalar& value) = 0;
};

class WeighsPatchCounts {
 public:
  virtual ~WeighsPatchCounts();
  // Whether this model, as configured, weighs patch p's contribution by patch_counts[p] (the same function as
  // on the uncompressed patches). A network answers for its layers.
  virtual bool weighs_patch_counts() const = 0;
};

class CodedInputs {
 public:
  virtual ~CodedInputs();
  // Model::forward(batch.X(), out) from the batch's codes, and backward after it; the same function, other
  // rounding. Each returns false (nothing written) when it does not apply (no codes, or Batch::codes_pay() says
  // the direct products are cheaper): the caller then runs the model's own. Shape only, so the bits do not depend
  // on the threads.
  virtual bool forward_coded(const Batch& batch, MatRef out) = 0;
  virtual bool backward_coded(const Batch& batch, ConstMatRef dout, VecRef grad) = 0;
};

class Model;
// model.forward(batch.X(), out), through the codes where the model and the batch offer them (CodedInputs).
void forward_batch(Model& model, const Batch& batch, MatRef out);
// model.backward(batch.X(), dout, grad), likewise.
void backward_batch(Model& model, const Batch& batch, ConstMatRef dout, VecRef grad);

}  // namespace featurelab
