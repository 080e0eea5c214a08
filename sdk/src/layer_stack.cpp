// Layers chained: build with names and located errors, forward over a tape, backward in reverse.
#include <featurelab/error.hpp>
#include <featurelab/layer_stack.hpp>

#include <algorithm>

namespace featurelab {

namespace {

std::string layer_text(const LayerStack::Entry& e) {
  std::string text = e.path.empty() ? "layer '" + e.label + "'" : e.path;
  text += " (" + e.use + (e.where.empty() ? "" : ", at " + e.where) + ")";
  return text;
}

}  // namespace

Index LayerShape::size() const {
  Index n = 1;
  for (Index d : dims) n *= d;
  return n;
}

Index LayerShape::features() const {
  if (dims.empty()) return 0;
  return layout == Layout::ChannelsFirst || layout == Layout::ChannelsLast ? dims.front() : dims.back();
}

std::string LayerShape::describe() const {
  const auto join = [this] {
    std::string out;
    for (std::size_t i = 0; i < dims.size(); ++i) out += (i ? "×" : "") + std::to_string(dims[i]);
    return out;
  };
  switch (layout) {
    case Layout::Flat: return join() + " features (flat)";
    case Layout::ChannelsFirst: return join() + " image (channels first)";
    case Layout::ChannelsLast: return join() + " image (channels last)";
    case Layout::Sequence: return std::to_string(dims[0]) + " tokens × " + std::to_string(dims[1]);
  }
  return join();
}

Mat& LayerTape::buffer(std::size_t k, Index rows, Index cols) {
  if (buffers.size() <= k) buffers.resize(k + 1);
  Mat& m = buffers[k];
  if (m.rows() != rows || m.cols() != cols) m.resize(rows, cols);
  return m;
}

StackTape& LayerTape::stack(std::size_t k) {
  if (stacks.size() <= k) stacks.resize(k + 1);
  return stacks[k];
}

void Layer::init(const LayerWeights&, Rng&) {}

LayerBlock LayerBuilder::declare(const std::string& name, Index rows, Index cols, bool trainable) {
  std::string full = prefix_ + name;
  if (renames_ && declared_ < renames_->size()) full = (*renames_)[declared_];
  ++declared_;
  if (parameters_by_layer_.empty() || parameters_by_layer_.back().first != describing_) {
    parameters_by_layer_.emplace_back(describing_, 0.0);
  }
  parameters_by_layer_.back().second += static_cast<double>(rows) * static_cast<double>(cols);
  return declare_(full, rows, cols, trainable);
}

Index LayerBuilder::automatic_outputs() const {
  if (data_.classes == 2) return 1;
  if (data_.classes > 2) return data_.classes;
  return std::max<Index>(1, data_.target_cols);
}

LayerStack::LayerStack(const ComponentList& specs, const Context& context) {
  for (const ComponentSpec& spec : specs) {
    Entry e;
    e.layer = make_sub<Layer>(context, spec);
    e.use = spec.use;
    e.name = spec.name;
    e.block_names = spec.block_names;
    e.path = spec.path;
    e.where = spec.where;
    entries_.push_back(std::move(e));
  }
}

void LayerStack::add(Entry entry) { entries_.push_back(std::move(entry)); }

void LayerStack::rethrow_located(const Entry& entry, std::size_t index, const std::exception& e) const {
  std::string message = layer_text(entry) + ": " + e.what();
  if (index > 0) {
    const Entry& before = entries_[index - 1];
    message += " (its input is the output of " + layer_text(before) + ": " + entry.in.describe() + ")";
  } else {
    message += " (its input: " + entry.in.describe() + ")";
  }
  throw Error(message);
}

LayerShape LayerStack::build(const LayerShape& in, LayerBuilder& builder, const std::string& label) {
  if (entries_.empty()) {
    throw Error((label.empty() ? std::string("the network") : "layer '" + label + "'") +
                " has no layers: write at least one [[model.layer]] table (or layers = [{ use = \"linear\" }])");
  }
  in_ = in;
  LayerShape shape = in;
  const bool outer_reads_data = builder.reads_data_;
  for (std::size_t i = 0; i < entries_.size(); ++i) {
    Entry& e = entries_[i];
    e.label = (label.empty() ? "" : label + ".") + (e.name.empty() ? std::to_string(i) : e.name);
    e.in = shape;
    const std::string saved_prefix = builder.prefix_;
    const std::string saved_label = builder.label_;
    const auto* saved_renames = builder.renames_;
    const std::size_t saved_declared = builder.declared_;
    const std::string saved_describing = builder.describing_;
    builder.describing_ = layer_text(e);
    builder.prefix_ = e.label + ".";
    builder.label_ = e.label;
    builder.renames_ = &e.block_names;
    builder.declared_ = 0;
    builder.reads_data_ = outer_reads_data && i == 0;
    try {
      shape = e.layer->build(shape, builder);
      if (!e.block_names.empty() && builder.declared_ != e.block_names.size()) {
        throw Error("blocks = [...] names " + std::to_string(e.block_names.size()) + " blocks, but the layer declares " +
                    std::to_string(builder.declared_) + "; name each of its blocks, in order, or leave blocks out");
      }
    } catch (const std::exception& ex) {
      builder.prefix_ = saved_prefix;
      builder.label_ = saved_label;
      builder.renames_ = saved_renames;
      builder.declared_ = saved_declared;
      builder.describing_ = saved_describing;
      rethrow_located(e, i, ex);
    }
    builder.describing_ = saved_describing;
    builder.prefix_ = saved_prefix;
    builder.label_ = saved_label;
    builder.renames_ = saved_renames;
    builder.declared_ = saved_declared;
    if (shape.size() <= 0) {
      throw Error(layer_text(e) + ": its output has no values (" + shape.describe() + ")");
    }
    e.out = shape;
  }
  builder.reads_data_ = outer_reads_data;
  out_ = shape;
  return shape;
}

void LayerStack::init(const LayerWeights& weights, const Rng& rng) const {
  for (const Entry& e : entries_) {
    Rng own = rng.fork(e.label);
    e.layer->init(weights, own);
    std::size_t k = 0;
    for (const LayerStack* sub : e.layer->sub_stacks()) sub->init(weights, rng.fork(e.label + "#" + std::to_string(k++)));
  }
}

void LayerStack::forward(const LayerWeights& weights, ConstMatRef in, StackTape& tape) const {
  const Index n = in.rows();
  tape.outputs.resize(entries_.size());
  tape.layers.resize(entries_.size());
  for (std::size_t i = 0; i < entries_.size(); ++i) {
    const Entry& e = entries_[i];
    Mat& out = tape.outputs[i];
    if (out.rows() != n || out.cols() != e.out.size()) out.resize(n, e.out.size());
    if (i == 0) {
      e.layer->forward(weights, in, out, tape.layers[i]);
    } else {
      e.layer->forward(weights, tape.outputs[i - 1], out, tape.layers[i]);
    }
  }
}

void LayerStack::backward(const LayerWeights& weights, ConstMatRef in, StackTape& tape, ConstMatRef dout, MatRef din,
                          bool want_din, LayerGrads& grads, std::size_t from) const {
  const std::size_t last = from == kLast ? entries_.size() - 1 : from;
  const Index n = in.rows();
  if (tape.outputs.size() != entries_.size()) {
    throw Error("a network's backward pass ran before its forward pass (a plugin bug: call forward first)");
  }
  // Two buffers in turn: layer i reads d(out_i) from gradients[(i+1) % 2] and writes d(in_i) into gradients[i % 2].
  for (std::size_t step = 0, i = last; step <= last; ++step, --i) {
    const Entry& e = entries_[i];
    const ConstMatRef layer_in = i == 0 ? in : ConstMatRef(tape.outputs[i - 1]);
    const ConstMatRef layer_dout =
        i == last ? dout : ConstMatRef(ConstMatMap(tape.gradients[(i + 1) % 2].data(), n, entries_[i].out.size()));
    const bool need_din = i > 0 || want_din;
    // Each buffer keeps the largest size it held: views of its first n×size entries, so that layers of
    // other widths taking turns on it do not reallocate (and page-fault) it at every layer of every step.
    Mat& into = tape.gradients[i % 2];
    if (i > 0 && into.size() < n * e.in.size()) into.resize(n * e.in.size(), 1);
    MatMap into_view(into.data(), i > 0 ? n : 0, e.in.size());
    MatRef layer_din = i > 0 ? MatRef(into_view) : din;
    LayerPass pass{weights, layer_in, tape.outputs[i], tape.layers[i], layer_din, need_din};
    e.layer->backward(pass, layer_dout, grads);
    if (i == 0) break;
  }
}

std::vector<LayerStack::Hook> LayerStack::hooks() const {
  std::vector<Hook> out;
  collect_hooks(out, {}, {});
  return out;
}

void LayerStack::collect_hooks(std::vector<Hook>& out, const std::vector<std::size_t>& route,
                               const std::vector<std::size_t>& stacks) const {
  for (std::size_t i = 0; i < entries_.size(); ++i) {
    const Entry& e = entries_[i];
    Hook h;
    h.name = e.label;
    h.shape = e.out;
    h.route = route;
    h.route.push_back(i);
    h.stacks = stacks;
    out.push_back(h);
    std::size_t k = 0;
    for (const LayerStack* sub : e.layer->sub_stacks()) {
      std::vector<std::size_t> sub_stacks = stacks;
      sub_stacks.push_back(k++);
      sub->collect_hooks(out, h.route, sub_stacks);
    }
  }
}

const Mat& LayerStack::read(const LayerStack& top, const StackTape& tape, const Hook& hook) {
  const LayerStack* stack = &top;
  const StackTape* at = &tape;
  for (std::size_t depth = 0; depth + 1 < hook.route.size(); ++depth) {
    const std::size_t i = hook.route[depth];
    const std::size_t k = hook.stacks[depth];
    const auto subs = stack->entries_[i].layer->sub_stacks();
    const LayerTape& layer_tape = at->layers[i];
    if (k >= subs.size() || k >= layer_tape.stacks.size()) {
      throw Error("hook point '" + hook.name + "' was not computed by the last forward pass");
    }
    stack = subs[k];
    at = &layer_tape.stacks[k];
  }
  const std::size_t last = hook.route.back();
  if (last >= at->outputs.size()) throw Error("hook point '" + hook.name + "' was not computed by the last forward pass");
  return at->outputs[last];
}

}  // namespace featurelab
