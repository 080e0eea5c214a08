// A model composed of layers (layer.hpp): std's `network`, written in the pipeline as [[model.layer]]
// tables, and the presets that build a fixed layer list in C++ (a class deriving from Network).
//
// Its forward pass runs the layer stack on a training tape, its backward pass chains the layers'
// (nothing hand-written), and every layer's output is a hook point read from a tape: `hook` runs the
// same forward pass on a second tape, so a probe or regularizer that reads features between a step's
// forward and backward leaves the step untouched. hook_backward injects d(hook) at that layer's output
// and runs the same backward pass below it.
//
// Inputs: the data's shape decides the first layer's input: flat rows {D}; DataShape dims {C, H, W}
// an image, channels first; dims {P, d} a sequence of P patches (or tokens) of width d.
//
// Large batches: every layer treats the rows of a batch independently, so a batch whose tape would pass
// the tape budget (256 MiB; about three floats per value of every layer's output) runs in fixed chunks
// of rows, and backward, input_gradient and hook_backward recompute each chunk's forward pass and add
// the chunks' gradients in order: evaluating 10,000 images holds one chunk's activations, and the bits
// depend on the batch size only, never on the thread count.
#pragma once

#include <featurelab/capabilities.hpp>
#include <featurelab/layer_stack.hpp>
#include <featurelab/model.hpp>

#include <string>
#include <vector>

namespace featurelab {

class Network : public Model, public WeighsPatchCounts {
 public:
  // The layers of a Components parameter (a `network`'s [[model.layer]]), made and built for the
  // context's data. Throws Error naming the layer (and its pipeline line) whose input does not fit.
  Network(const ComponentList& layers, Context& context);

  Index outputs() const override { return outputs_; }
  void init(Rng& rng) override;
  // X: n×D -> out: n×outputs() (the last layer's output, flattened)
  void forward(ConstMatRef X, MatRef out) override;
  void backward(ConstMatRef X, ConstMatRef dout, VecRef grad) override;
  void input_gradient(ConstMatRef X, ConstMatRef dout, MatRef dX) override;
  // Whether a layer weighs the data's patch counts (patches does).
  bool weighs_patch_counts() const override { return weighs_patch_counts_; }
  std::vector<HookSpec> hook_points() const override;
  void hook(const std::string& name, ConstMatRef X, Mat& out) override;
  void hook_backward(const std::string& name, ConstMatRef X, ConstMatRef dhook, VecRef grad) override;

  const LayerStack& layers() const { return stack_; }
  // The most rows one pass holds on a tape (at least 1), from the tape budget and the bytes a row takes.
  Index chunk_rows() const;
  // Tests: a smaller budget, to see chunked passes equal whole ones.
  void set_tape_budget(double bytes) { tape_budget_ = bytes; }
  // The first layer's input, from the data's shape.
  static LayerShape input_shape(const DataSpec& data);

 protected:
  // For presets: build `stack` (layers made in C++) for the context's data.
  Network(LayerStack stack, Context& context);

 private:
  void build(Context& context);
  LayerWeights weights() { return LayerWeights(parameters().data(), &infos_); }
  const LayerStack::Hook& find_hook(const std::string& name) const;

  LayerStack stack_;
  std::vector<BlockHandle> handles_;     // by LayerBlock id
  std::vector<LayerBlockInfo> infos_;    // by LayerBlock id, once allocated
  std::vector<LayerStack::Hook> hooks_;
  Index outputs_ = 0;
  bool weighs_patch_counts_ = false;
  double row_bytes_ = 0;                       // the tape's estimated bytes per row of a batch
  double tape_budget_ = 256.0 * 1024 * 1024;
  bool chunked_ = false;                       // the last forward() ran in chunks: the tape holds its last one
  Vec chunk_grad_;                             // one chunk's gradient before it is added
  StackTape train_tape_;  // forward()/backward()'s
  StackTape hook_tape_;   // hook()/hook_backward()'s
  Vec hook_grad_;         // hook_backward's gradient before it is added
};

}  // namespace featurelab
