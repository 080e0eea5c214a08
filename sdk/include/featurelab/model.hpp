// A model: forward and backward over whole batches, named parameters, named hook points.
//
// Parameters live in one flat vector, trainable blocks first, so an optimizer updates
// parameters().head(trainable_size()) in one fused pass and a frozen block can never be decayed
// by mistake. Named blocks are row-major views into it ("W": m×D, "a": K×m, ...).
//
// forward() caches what backward() needs in model-owned buffers that are reused while the batch
// size stays the same: no allocation inside a training step.
#pragma once

#include <featurelab/component.hpp>

#include <string>
#include <vector>

namespace featurelab {

struct ParamBlock {
  std::string name;
  Index offset = 0;
  Index rows = 0;
  Index cols = 0;
  bool trainable = true;
  Index size() const { return rows * cols; }
};

struct HookSpec {
  std::string name;   // "hidden.pre"
  std::string shape;  // "n×m"
  std::string doc;
};

class Model : public Component {
 public:
  static constexpr Kind kind_id = Kind::Model;
  static constexpr const char* interface_id = "featurelab.model/1";

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
  // Declare every block in the constructor, then call allocate_parameters() once.
  void declare_block(const std::string& name, Index rows, Index cols, bool trainable);
  void allocate_parameters();
  // "model 'two-layer'" for messages (its registry name; "the model" for one built directly in a test).
  std::string described() const;

 private:
  Vec theta_;
  std::vector<ParamBlock> blocks_;
  Index trainable_ = 0;
};

}  // namespace featurelab
