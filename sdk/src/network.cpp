// A network of layers: the stack built for the data's shape, θ laid out by the Model base, two tapes.
#include <featurelab/error.hpp>
#include <featurelab/network.hpp>

#include <algorithm>
#include <cstdio>

namespace featurelab {

namespace {

std::string bytes_text(double bytes) {
  char text[32];
  std::snprintf(text, sizeof text, "%.3g GiB", bytes / (1024.0 * 1024.0 * 1024.0));
  return text;
}

// θ, its gradient and an optimizer's two moments (Adam's): four floats per parameter at least, before
// any activation is stored. Refused when that alone is past what the job may commit.
void check_memory(std::vector<std::pair<std::string, double>> layers, double memory_bytes) {
  if (memory_bytes <= 0) return;
  double parameters = 0;
  for (const auto& [layer, count] : layers) parameters += count;
  const double need = 4 * parameters * static_cast<double>(sizeof(Scalar));
  if (need <= memory_bytes) return;
  std::stable_sort(layers.begin(), layers.end(), [](const auto& a, const auto& b) { return a.second > b.second; });
  std::string largest;
  for (std::size_t i = 0; i < layers.size() && i < 2; ++i) {
    char count[32];
    std::snprintf(count, sizeof count, "%.4g", layers[i].second);
    largest += (i ? "; " : "") + layers[i].first + " with " + count + " parameters";
  }
  char total[32];
  std::snprintf(total, sizeof total, "%.4g", parameters);
  throw Error("the network has " + std::string(total) + " parameters: with their gradient and an optimizer's two "
              "moments that is at least " + bytes_text(need) + ", past the " + bytes_text(memory_bytes) +
              " this job may use (its --job-memory, else the machine's memory). Largest: " + largest +
              ". Make those layers narrower (out, width, heads) or give the job more memory");
}

// A batch past the tape budget runs in passes of this many bytes of tape: its backward pass recomputes each
// pass's forward anyway, so nothing needs the whole tape, and a pass whose layers' outputs stay in the cache
// from one layer to the next runs faster (conv-net's evaluation over 10,000 images: 1.5× quicker than passes
// of 256 MiB).
constexpr double kCachedPassBytes = 8.0 * 1024 * 1024;

// The rows of one pass over a batch of n rows: all of them when their tape fits the budget (tape_rows),
// else passes that stay in the cache.
Index pass_rows(Index n, Index tape_rows, double row_bytes) {
  if (n <= tape_rows) return std::max<Index>(1, n);
  return std::clamp<Index>(static_cast<Index>(kCachedPassBytes / std::max(1.0, row_bytes)), 1, tape_rows);
}

}  // namespace

LayerShape Network::input_shape(const DataSpec& data) {
  const auto& dims = data.shape.dims;
  if (dims.size() == 3) return LayerShape::image(dims[0], dims[1], dims[2], LayerShape::Layout::ChannelsFirst);
  if (dims.size() == 2) return LayerShape::sequence(dims[0], dims[1]);
  return LayerShape::flat(data.dim);
}

Network::Network(const ComponentList& layers, Context& context) : stack_(layers, context) { build(context); }

Network::Network(LayerStack stack, Context& context) : stack_(std::move(stack)) { build(context); }

void Network::build(Context& context) {
  if (context.data.dim <= 0) throw Error("the data has no input dimension (a distribution bug)");
  LayerBuilder builder(
      [this](const std::string& name, Index rows, Index cols, bool trainable) {
        handles_.push_back(declare_block(name, rows, cols, trainable));
        return LayerBlock{static_cast<int>(handles_.size()) - 1};
      },
      context.data, context);
  builder.reads_data_ = true;
  const LayerShape out = stack_.build(input_shape(context.data), builder);
  check_memory(builder.parameters_by_layer_, context.memory_bytes);
  outputs_ = out.size();
  weighs_patch_counts_ = builder.weighs_patch_counts();
  allocate_parameters();
  for (const BlockHandle& h : handles_) {
    const ParamBlock& b = block_info(h);
    infos_.push_back({b.offset, b.rows, b.cols, b.trainable});
  }
  hooks_ = stack_.hooks();
  // About three floats per value of each layer's output (the output, a slope or statistics, a layer's own
  // scratch such as conv2d's patches) and the input row.
  row_bytes_ = static_cast<double>(input_shape(context.data).size()) * sizeof(Scalar);
  for (const auto& hook : hooks_) {
    if (hook.route.size() == 1) row_bytes_ += 3.0 * static_cast<double>(hook.shape.size()) * sizeof(Scalar);
  }
}

void Network::init(Rng& rng) {
  parameters().setZero();
  stack_.init(weights(), rng);
}

Index Network::chunk_rows() const {
  return std::max<Index>(1, static_cast<Index>(tape_budget_ / std::max(1.0, row_bytes_)));
}

void Network::forward(ConstMatRef X, MatRef out) {
  const Index n = X.rows(), chunk = pass_rows(n, chunk_rows(), row_bytes_);
  chunked_ = n > chunk;
  for (Index begin = 0; begin < n; begin += chunk) {
    const Index rows = std::min(chunk, n - begin);
    stack_.forward(weights(), X.middleRows(begin, rows), train_tape_);
    out.middleRows(begin, rows) = train_tape_.outputs.back();
  }
}

void Network::backward(ConstMatRef X, ConstMatRef dout, VecRef grad) {
  Mat unused;
  if (!chunked_) {
    LayerGrads grads(grad.data(), &infos_);
    stack_.backward(weights(), X, train_tape_, dout, MatRef(unused), false, grads);
    return;
  }
  // Each chunk's forward pass again (the tape holds the last one only), its gradient added in chunk order.
  grad.setZero();
  chunk_grad_.resize(trainable_size());
  const Index n = X.rows(), chunk = pass_rows(n, chunk_rows(), row_bytes_);
  for (Index begin = 0; begin < n; begin += chunk) {
    const Index rows = std::min(chunk, n - begin);
    stack_.forward(weights(), X.middleRows(begin, rows), train_tape_);
    LayerGrads grads(chunk_grad_.data(), &infos_);
    stack_.backward(weights(), X.middleRows(begin, rows), train_tape_, dout.middleRows(begin, rows), MatRef(unused),
                    false, grads);
    grad += chunk_grad_;
  }
}

void Network::input_gradient(ConstMatRef X, ConstMatRef dout, MatRef dX) {
  LayerGrads none(nullptr, &infos_);
  if (!chunked_) {
    stack_.backward(weights(), X, train_tape_, dout, dX, true, none);
    return;
  }
  const Index n = X.rows(), chunk = pass_rows(n, chunk_rows(), row_bytes_);
  for (Index begin = 0; begin < n; begin += chunk) {
    const Index rows = std::min(chunk, n - begin);
    stack_.forward(weights(), X.middleRows(begin, rows), train_tape_);
    stack_.backward(weights(), X.middleRows(begin, rows), train_tape_, dout.middleRows(begin, rows),
                    dX.middleRows(begin, rows), true, none);
  }
}

std::vector<HookSpec> Network::hook_points() const {
  std::vector<HookSpec> out;
  for (const auto& h : hooks_) {
    const bool top = h.route.size() == 1;
    out.push_back({h.name, "n×" + std::to_string(h.shape.size()),
                   "the output of " + (top ? stack_.entries()[h.route[0]].use : std::string("a sub-layer")) + ": " +
                       h.shape.describe() + (top ? " (backpropagates)" : "")});
  }
  return out;
}

const LayerStack::Hook& Network::find_hook(const std::string& name) const {
  for (const auto& h : hooks_) {
    if (h.name == name) return h;
  }
  std::string known;
  for (const auto& h : hooks_) known += (known.empty() ? "" : ", ") + h.name;
  throw Error(described() + " has no hook point '" + name + "'; its layers' outputs are: " + known +
              " (a layer's `name`, or its place: 0 is the first layer, 2.1 the second layer inside layer 2)");
}

void Network::hook(const std::string& name, ConstMatRef X, Mat& out) {
  const LayerStack::Hook& h = find_hook(name);
  const Index n = X.rows(), chunk = pass_rows(n, chunk_rows(), row_bytes_);
  if (n == 0) out.resize(0, 0);
  for (Index begin = 0; begin < n; begin += chunk) {
    const Index rows = std::min(chunk, n - begin);
    stack_.forward(weights(), X.middleRows(begin, rows), hook_tape_);
    const Mat& value = LayerStack::read(stack_, hook_tape_, h);
    // A sub-network that runs on every patch has rows·P rows: one sample's values are its P rows together.
    const Index cols = value.size() / rows;
    if (begin == 0) out.resize(n, cols);
    out.middleRows(begin, rows) = ConstMatMap(value.data(), rows, cols);
  }
}

void Network::hook_backward(const std::string& name, ConstMatRef X, ConstMatRef dhook, VecRef grad) {
  const LayerStack::Hook& h = find_hook(name);
  if (h.route.size() != 1) {
    throw Error(described() + " backpropagates from the outputs of its own layers, not from '" + name +
                "' inside a container layer; name the container's output instead");
  }
  hook_grad_.resize(trainable_size());
  Mat unused;
  const Index n = X.rows(), chunk = pass_rows(n, chunk_rows(), row_bytes_);
  for (Index begin = 0; begin < n; begin += chunk) {
    const Index rows = std::min(chunk, n - begin);
    stack_.forward(weights(), X.middleRows(begin, rows), hook_tape_);
    hook_grad_.setZero();
    LayerGrads grads(hook_grad_.data(), &infos_);
    stack_.backward(weights(), X.middleRows(begin, rows), hook_tape_, dhook.middleRows(begin, rows), MatRef(unused),
                    false, grads, h.route[0]);
    grad += hook_grad_;
  }
}

}  // namespace featurelab
