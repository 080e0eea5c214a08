// A sequence of layers applied in turn: a network's body (network.hpp), and a container layer's
// sub-network (residual, concat, patches). It builds its layers for an input shape, names their
// blocks and hook points, initialises each from its own stream, and chains their forward and backward
// passes over a tape (layer.hpp): the only backward pass a composed network has.
//
// Names: layer i of the top stack is "<name>" when the pipeline named it, else "i"; a sub-network's
// layers are "<parent>.<name or j>". Its blocks are "<layer>.<block>" ("0.W", "block.1.b") unless the
// layer's `blocks = [...]` renames them, and its output is the hook point "<layer>".
#pragma once

#include <featurelab/layer.hpp>

#include <memory>
#include <string>
#include <vector>

namespace featurelab {

class LayerStack {
 public:
  // One layer of the stack with what the pipeline said about it.
  struct Entry {
    std::shared_ptr<Layer> layer;
    std::string use;       // "std:linear"
    std::string name;      // the pipeline's `name`, or empty
    std::vector<std::string> block_names;
    std::string path;      // "model.layer.2"
    std::string where;     // file:line, or empty
    // Set by build():
    std::string label;     // its hook point and block prefix: "2", "block", "3.1"
    LayerShape in, out;
  };

  LayerStack() = default;
  // The layers of a Components parameter, made through context.make_component (make_sub<Layer>).
  LayerStack(const ComponentList& specs, const Context& context);
  // One more layer (presets and tests build stacks from C++).
  void add(Entry entry);

  // Builds every layer for inputs `in` and returns the output shape. `label` names this stack inside
  // its parent ("" for a network's top stack). Throws Error naming the layer, its pipeline line and the
  // layer whose output it could not take.
  LayerShape build(const LayerShape& in, LayerBuilder& builder, const std::string& label = "");
  // Each layer draws its blocks from rng.fork(its label).
  void init(const LayerWeights& weights, const Rng& rng) const;
  // in: n×in.size() -> the last layer's output, tape.outputs.back(); every layer's output stays on the tape.
  void forward(const LayerWeights& weights, ConstMatRef in, StackTape& tape) const;
  // dout: d(loss)/d(output of layer `from`) (the last layer by default) -> din (when want_din) and the
  // trainable blocks' gradients of layers 0…from (written). Needs the forward pass of `in` on `tape`.
  void backward(const LayerWeights& weights, ConstMatRef in, StackTape& tape, ConstMatRef dout, MatRef din,
                bool want_din, LayerGrads& grads, std::size_t from = kLast) const;
  static constexpr std::size_t kLast = static_cast<std::size_t>(-1);

  const std::vector<Entry>& entries() const { return entries_; }
  std::size_t size() const { return entries_.size(); }
  const LayerShape& input_shape() const { return in_; }
  const LayerShape& output_shape() const { return out_; }

  // Every hook point: each layer's output (and, inside container layers, their layers'), with its shape.
  struct Hook {
    std::string name;
    LayerShape shape;
    std::vector<std::size_t> route;  // layer indices: top layer, then its k-th sub-stack's layer, ...
    std::vector<std::size_t> stacks; // for each step below the top, which sub-stack of that layer
  };
  std::vector<Hook> hooks() const;
  // The tape value of a hook (after forward on `tape`).
  static const Mat& read(const LayerStack& top, const StackTape& tape, const Hook& hook);

 private:
  void collect_hooks(std::vector<Hook>& out, const std::vector<std::size_t>& route,
                     const std::vector<std::size_t>& stacks) const;
  [[noreturn]] void rethrow_located(const Entry& entry, std::size_t index, const std::exception& e) const;

  std::vector<Entry> entries_;
  LayerShape in_, out_;
};

}  // namespace featurelab
