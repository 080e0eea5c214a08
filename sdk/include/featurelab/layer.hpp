// A layer: one step of a network written as [[model.layer]] tables (network.hpp). It declares its
// parameter blocks in the network's flat θ (so optimizers, regularizers, probes, saved weights and
// `eval` see an ordinary model), draws them from its own stream, and runs forward and backward over a
// whole batch. Nobody writes a network's backward pass: the network chains its layers' (layer_stack.hpp).
//
//   class Square : public featurelab::Layer {            // y = x ⊙ x, no parameters
//     LayerShape build(const LayerShape& in, LayerBuilder&) override { return in; }
//     void forward(const LayerWeights&, ConstMatRef in, MatRef out, LayerTape&) const override {
//       out.array() = in.array().square(); }
//     void backward(const LayerPass& pass, ConstMatRef dout, LayerGrads&) const override {
//       if (pass.want_din) pass.din.array() = 2 * pass.in.array() * dout.array(); }
//   };
//
// Shapes. A batch is an n×size() row-major matrix, one sample a row, laid out as its LayerShape says:
//   flat            {D}
//   channels-first  {C, H, W}: channel planes, each row by row (how data sets store images)
//   channels-last   {C, H, W}: positions row by row, each position's C channels together (what conv2d
//                   and pool write: a convolution is then one product over (n·H·W)×C rows)
//   sequence        {T, d}: T tokens (or patches) of width d, token after token
//
// The tape. forward() keeps what backward() needs (pre-activations, normalisation statistics,
// attention probabilities) in the LayerTape it is handed: buffers owned by the network, one set per
// layer, reused while the batch size stays the same (no allocation inside a training step). A layer
// holds parameters' handles and settings only, never state between calls, so the network can run a
// probe's hook on a second tape between a step's forward and backward without disturbing it, and a
// hook point reads exactly the value the forward pass computed.
#pragma once

#include <featurelab/component.hpp>
#include <featurelab/types.hpp>

#include <deque>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace featurelab {

struct LayerShape {
  enum class Layout { Flat, ChannelsFirst, ChannelsLast, Sequence };
  Layout layout = Layout::Flat;
  std::vector<Index> dims;  // flat {D}; images {C, H, W} in either layout; sequence {T, d}

  static LayerShape flat(Index size) { return {Layout::Flat, {size}}; }
  static LayerShape image(Index channels, Index height, Index width, Layout layout) {
    return {layout, {channels, height, width}};
  }
  static LayerShape sequence(Index tokens, Index width) { return {Layout::Sequence, {tokens, width}}; }

  Index size() const;  // the product of dims: the batch matrix's columns
  bool is_image() const { return layout == Layout::ChannelsFirst || layout == Layout::ChannelsLast; }
  bool is_sequence() const { return layout == Layout::Sequence; }
  // The last dimension: a flat sample's size, a token's width, an image's channels.
  Index features() const;
  // "100", "1×28×28 image (channels first)", "32 tokens × 128"
  std::string describe() const;
  bool operator==(const LayerShape& other) const { return layout == other.layout && dims == other.dims; }
  bool operator!=(const LayerShape& other) const { return !(*this == other); }
};

// A parameter block a layer declared (LayerBuilder::declare); empty when optional and absent.
struct LayerBlock {
  int id = -1;
  explicit operator bool() const { return id >= 0; }
};

// Where a layer's blocks live: views of the network's θ (values) and of the gradient being written.
struct LayerBlockInfo {
  Index offset = 0;  // in θ (and, trainable, in the gradient: trainable blocks come first)
  Index rows = 0, cols = 0;
  bool trainable = true;
};

class LayerWeights {
 public:
  LayerWeights(Scalar* theta, const std::vector<LayerBlockInfo>* blocks) : theta_(theta), blocks_(blocks) {}
  ConstMatMap operator()(LayerBlock b) const {
    const LayerBlockInfo& i = (*blocks_)[static_cast<std::size_t>(b.id)];
    return ConstMatMap(theta_ + i.offset, i.rows, i.cols);
  }
  // Writable views, for init().
  MatMap value(LayerBlock b) const {
    const LayerBlockInfo& i = (*blocks_)[static_cast<std::size_t>(b.id)];
    return MatMap(theta_ + i.offset, i.rows, i.cols);
  }

 private:
  Scalar* theta_;
  const std::vector<LayerBlockInfo>* blocks_;
};

// The gradient a backward pass writes: each trainable block's gradient is WRITTEN (not added) by the
// layer that declared it, once per backward pass. wanted() is false when only the input gradient is
// asked for (an attack's input_gradient): then a layer skips its parameter gradients.
class LayerGrads {
 public:
  LayerGrads(Scalar* grad, const std::vector<LayerBlockInfo>* blocks) : grad_(grad), blocks_(blocks) {}
  bool wanted() const { return grad_ != nullptr; }
  // Whether the block trains (and so has a place in the gradient).
  bool trains(LayerBlock b) const { return wanted() && (*blocks_)[static_cast<std::size_t>(b.id)].trainable; }
  // Its gradient's view; only for a block that trains().
  MatMap operator()(LayerBlock b) const {
    const LayerBlockInfo& i = (*blocks_)[static_cast<std::size_t>(b.id)];
    return MatMap(grad_ + i.offset, i.rows, i.cols);
  }

 private:
  Scalar* grad_;
  const std::vector<LayerBlockInfo>* blocks_;
};

struct LayerTape;

// A stack of layers' tape: each layer's output (the hook points) and its own tape.
struct StackTape {
  std::vector<Mat> outputs;
  std::vector<LayerTape> layers;
  Mat gradients[2];  // the backward pass's d(loss)/d(a layer's output), in turn
};

// A layer's own buffers on one tape. buffer(k, rows, cols) is the k-th, resized only when its
// shape changes; stacks are the tapes of a container layer's sub-networks (residual, concat, patches).
// Both are deques: asking for buffer k never moves buffer j < k, so references to earlier ones stay valid.
struct LayerTape {
  std::deque<Mat> buffers;
  std::deque<StackTape> stacks;
  Mat& buffer(std::size_t k, Index rows, Index cols);
  StackTape& stack(std::size_t k);
};

// What backward() reads: the forward pass's input and output, its tape, the parameters, and where
// the input gradient goes (want_din false: the first layer of a network, whose inputs are data).
struct LayerPass {
  const LayerWeights& weights;
  ConstMatRef in;
  ConstMatRef out;
  LayerTape& tape;
  mutable MatRef din;  // written through a const pass
  bool want_din;
};

class LayerStack;

// Handed to build(): declares blocks in the network's θ and tells the layer about the data.
class LayerBuilder {
 public:
  using Declare = std::function<LayerBlock(const std::string& name, Index rows, Index cols, bool trainable)>;
  LayerBuilder(Declare declare, const DataSpec& data, const Context& context)
      : declare_(std::move(declare)), data_(data), context_(context) {}

  // A block named "<layer>.<name>" (the layer's `name`, or its place "2", "3.1"), or as the layer's
  // `blocks = [...]` renames it.
  LayerBlock declare(const std::string& name, Index rows, Index cols, bool trainable);
  // out = "auto": one output per class, or one for two classes (±1 labels), or the targets' columns.
  Index automatic_outputs() const;
  // The layer being built: its hook point's name ("2", "block", "3.1"), which names a container's sub-network.
  const std::string& label() const { return label_; }
  const DataSpec& data() const { return data_; }
  const Context& context() const { return context_; }
  // Whether the layer being built reads the data itself (the network's first layer): where the
  // data's patch counts (DataShape::patch_counts) apply.
  bool reads_data() const { return reads_data_; }
  // A layer that weighs the data's patches by their counts says so (patches does).
  void weigh_patch_counts() { weighs_patch_counts_ = true; }
  bool weighs_patch_counts() const { return weighs_patch_counts_; }

 private:
  friend class LayerStack;
  friend class Network;
  Declare declare_;
  const DataSpec& data_;
  const Context& context_;
  std::string prefix_;                    // "2." while layer 2 builds
  std::string label_;                     // "2"
  const std::vector<std::string>* renames_ = nullptr;  // its `blocks = [...]`
  std::size_t declared_ = 0;              // blocks the current layer declared so far
  bool reads_data_ = false;
  bool weighs_patch_counts_ = false;
  std::string describing_;  // "model.layer.2 (linear, at file:line)" while it builds
  // Parameters each layer declared, in order (a container's under its innermost layer): what a network
  // too large for the job's memory names.
  std::vector<std::pair<std::string, double>> parameters_by_layer_;
};

// A layer's hook point below its own output (a container's sub-layers, attention's probabilities).
struct LayerHook {
  std::string name;   // relative to the layer: "0", "hidden"
  LayerShape shape;
};

class Layer : public Component {
 public:
  static constexpr Kind kind_id = Kind::Layer;
  static constexpr const char* interface_id = "featurelab.layer/1";

  // Declares its blocks for inputs of shape `in` and returns its output's shape. Called once, before
  // any other call. Throws Error, saying what it needs, when `in` does not fit (a conv2d on flat data).
  virtual LayerShape build(const LayerShape& in, LayerBuilder& builder) = 0;
  // Draws its blocks' initial values (weights.value(b)) from its own stream. Default: nothing.
  virtual void init(const LayerWeights& weights, Rng& rng);
  // in: n×in.size() -> out: n×out.size(), presized; keeps what backward() needs on the tape.
  virtual void forward(const LayerWeights& weights, ConstMatRef in, MatRef out, LayerTape& tape) const = 0;
  // dout: n×out.size() = dL/dout for the forward pass on this tape -> pass.din (when pass.want_din,
  // written) and the gradients of its trainable blocks (written, when grads.wanted()).
  virtual void backward(const LayerPass& pass, ConstMatRef dout, LayerGrads& grads) const = 0;
  // A layer that reads token ids (embedding) returns its vocabulary size V, once built: its inputs are
  // integers in [0, V) stored as numbers, and it has no input gradient. 0: it reads numbers.
  virtual Index token_vocabulary() const { return 0; }
  // Its sub-networks, for a container layer (hook points, initialisation): none by default. The tape of
  // sub_stacks()[k] is tape.stack(k).
  virtual std::vector<const LayerStack*> sub_stacks() const { return {}; }
};

}  // namespace featurelab
