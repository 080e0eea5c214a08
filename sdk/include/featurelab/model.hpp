// A model: forward and backward over whole batches, named parameters, named hook points.
//
// Parameters live in one flat vector, trainable blocks first, so an optimizer updates
// parameters().head(trainable_size()) in one fused pass and a frozen block can never be decayed
// by mistake. Named blocks are row-major views into it ("W": m×D, "a": K×m, ...).
//
// A model keeps the BlockHandle declare_block() returns and reads its own blocks through it in
// forward/backward (block(W_), grad_block(grad, W_)): no name lookup per step. block("W") by name
// is for probes and regularizers reading another model's blocks.
//
// forward() caches what backward() needs in model-owned buffers that are reused while the batch
// size stays the same: no allocation inside a training step.
#pragma once

#include <featurelab/component.hpp>

#include <string>
#include <vector>

namespace featurelab {

class OutputLoss;

struct ParamBlock {
  std::string name;
  Index offset = 0;
  Index rows = 0;
  Index cols = 0;
  bool trainable = true;
  Index size() const { return rows * cols; }
};

// A block of the model that declared it: its place in declaration order, resolved to the block's
// offset and shape by the model (allocate_parameters() moves trainable blocks first, so the
// handle, not a copied offset, stays right). Default-constructed: no block (an optional one).
class BlockHandle {
 public:
  BlockHandle() = default;
  explicit operator bool() const { return id_ >= 0; }

 private:
  friend class Model;
  explicit BlockHandle(int id) : id_(id) {}
  int id_ = -1;
};

struct HookSpec {
  std::string name;   // "hidden.pre"
  std::string shape;  // "n×m"
  std::string doc;
};

class Model : public Component {
 public:
  static constexpr Kind kind_id = Kind::Model;
  static constexpr const char* interface_id = "featurelab.model/3";  // 3: fused_step, weighs_patch_counts became capabilities (ABI 12)

  virtual Index outputs() const = 0;
  // Draws the initial parameters from this model's own stream.
  virtual void init(Rng& rng) = 0;
  // X: n×D -> out: n×outputs(). Caches activations for backward().
  virtual void forward(ConstMatRef X, MatRef out) = 0;
  // dout: n×outputs() = dLoss/dout for the last forward(X) -> grad: trainable_size(), written
  // (not accumulated).
  virtual void backward(ConstMatRef X, ConstMatRef dout, VecRef grad) = 0;
  // dout for the last forward(X) -> dX: n×D, the gradient with respect to the inputs (attacks).
  virtual void input_gradient(ConstMatRef X, ConstMatRef dout, MatRef dX);
  // Optional fast paths (a fused training step, weighing patch counts) are capabilities a model may also
  // derive from (capabilities.hpp), not methods of this interface.

  virtual std::vector<HookSpec> hook_points() const { return {}; }
  // Activations at a hook point for inputs X (out is resized).
  virtual void hook(const std::string& name, ConstMatRef X, Mat& out);
  // Backpropagation from a hook point: ADDS to grad (trainable_size()) the gradient of
  // sum(dhook ∘ hook(name, X)) with respect to the parameters, for regularizers of features
  // (nuclear-norm on the penultimate layer). Models that support it say so in hook_points' doc.
  virtual void hook_backward(const std::string& name, ConstMatRef X, ConstMatRef dhook, VecRef grad);

  Vec& parameters() { return theta_; }
  const Vec& parameters() const { return theta_; }
  const std::vector<ParamBlock>& blocks() const { return blocks_; }
  Index trainable_size() const { return trainable_; }
  const ParamBlock* find_block(const std::string& name) const;
  MatMap block(const std::string& name);
  ConstMatMap block(const std::string& name) const;

 protected:
  // Declare every block in the constructor, keep the handles, then call allocate_parameters() once.
  BlockHandle declare_block(const std::string& name, Index rows, Index cols, bool trainable);
  void allocate_parameters();

  // A declared block (after allocate_parameters()): its offset, shape and whether it trains.
  const ParamBlock& block_info(BlockHandle handle) const { return blocks_[slot_[static_cast<std::size_t>(handle.id_)]]; }
  // Its rows×cols view of θ.
  MatMap block(BlockHandle handle) {
    const ParamBlock& b = block_info(handle);
    return MatMap(theta_.data() + b.offset, b.rows, b.cols);
  }
  ConstMatMap block(BlockHandle handle) const { return cblock(handle); }
  ConstMatMap cblock(BlockHandle handle) const {
    const ParamBlock& b = block_info(handle);
    return ConstMatMap(theta_.data() + b.offset, b.rows, b.cols);
  }
  // Its rows×cols view of a gradient laid out like θ's trainable head (backward()'s grad, or a
  // scratch vector of trainable_size()). A frozen block has no place there: Error.
  MatMap grad_block(VecRef grad, BlockHandle handle) const {
    const ParamBlock& b = block_info(handle);
    if (!b.trainable) frozen_gradient(b);
    return MatMap(grad.data() + b.offset, b.rows, b.cols);
  }
  // "model 'two-layer'" for messages (its registry name; "the model" for one built directly in a test).
  std::string described() const;

 private:
  [[noreturn]] void frozen_gradient(const ParamBlock& b) const;

  Vec theta_;
  std::vector<ParamBlock> blocks_;  // trainable first, once allocated
  std::vector<std::size_t> slot_;   // declaration order -> index in blocks_
  Index trainable_ = 0;
};

}  // namespace featurelab
