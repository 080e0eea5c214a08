// conv-net as std's layers: a conv-block (conv2d → activation → pool in one pass) per block, flatten,
// [linear → activation], linear.
#include "conv_net_model.hpp"

#include "layers/activation_layer.hpp"
#include "layers/conv_block_layer.hpp"
#include "layers/flatten_layer.hpp"
#include "layers/linear_layer.hpp"

#include <featurelab/activation.hpp>
#include <featurelab/error.hpp>
#include <featurelab/testing.hpp>

#include <cmath>
#include <string>

namespace featurelab::std_pack {

namespace {

template <class L>
LayerStack::Entry entry(const std::string& use, const std::map<std::string, Value>& params, Context& context,
                        std::string name = "", std::vector<std::string> blocks = {}) {
  LayerStack::Entry e;
  const Params resolved = testing::resolve(L::schema(), params);
  e.layer = std::make_shared<L>(resolved, context);
  e.use = "std:" + use;
  e.name = std::move(name);
  e.block_names = std::move(blocks);
  return e;
}

// Each block halves the map: say so in conv-net's words (its channels list) before a pool layer refuses a map
// too small. A shape the layers cannot read at all (no square image, a height that does not divide) is left to
// conv2d's own errors.
void check_room(const LayerShape& input, const Params& params, std::size_t blocks) {
  Index height = 0, width = 0;
  if (input.is_image()) {
    height = input.dims[1];
    width = input.dims[2];
  } else {
    const Index pixels = input.size() / params.integer("in_channels");
    const auto requested = params.integer_or_auto("height");
    height = requested ? *requested : static_cast<Index>(std::lround(std::sqrt(static_cast<double>(pixels))));
    if (height <= 0 || pixels % height != 0) return;
    width = pixels / height;
  }
  Index h = height, w = width;
  for (std::size_t b = 0; b < blocks; ++b, h /= 2, w /= 2) {
    if (h >= 2 && w >= 2) continue;
    throw Error("conv-net: block " + std::to_string(b + 1) + " would pool a " + std::to_string(h) + "×" +
                std::to_string(w) + " map: a " + std::to_string(height) + "×" + std::to_string(width) +
                " image has room for " + std::to_string(b) + " blocks; shorten channels");
  }
}

}  // namespace

Schema ConvNetModel::schema() {
  Schema s;
  s.integers("channels", {16, 32}, "output channels of each convolution block, one block per entry").non_empty();
  s.integer("kernel", 5, "k: k×k filters, odd (same padding k/2)").min(1);
  s.choice("pool", "max", {"max", "average"}, "the 2×2 pooling after each block's activation");
  Activation::declare(s);
  s.integer("in_channels", 1, "C: input channels of flat data (a row is C×H×W); data with an image shape gives its own")
      .min(1);
  s.integer("height", Automatic{"√(D/C): square images"}, "H: image height of flat data; the width is D/(C·H)").min(1);
  s.integer("outputs", Automatic{"1 for two classes (binary, ±1 labels), else one per class"}, "outputs K").min(1);
  s.integer("hidden", 0, "h: a fully connected layer of h units (same activation) between the features and the "
                         "head, hook `hidden`; 0: none").min(0);
  s.real("init_scale", 1.0, "times He's initial std: √(2/fan-in) for the filters, √(1/fan-in) for the head").above(0);
  return s;
}

// 6×6 grey images (36 inputs) of two Gaussian classes; two blocks of 3×3 filters: 6×6 → 3×3 → 1×1.
ContractData ConvNetModel::contract_data() {
  return {{"gaussian-mixture", {{"classes", std::int64_t(2)}, {"dim", std::int64_t(36)}, {"sigma", 0.5}}}, {}, {}, {}};
}

// Smooth (smoothed ReLU, average pooling) so that the finite differences never straddle a kink; the
// unit tests check ReLU and max pooling.
std::map<std::string, Value> ConvNetModel::test_params() {
  return {{"channels", std::vector<std::int64_t>{3, 4}}, {"kernel", std::int64_t(3)},
          {"activation", std::string("smoothed-relu")}, {"pool", std::string("average")}};
}

LayerStack ConvNetModel::layers_of(const Params& params, Context& context) {
  const std::map<std::string, Value> activation{{"activation", params.str("activation")},
                                                {"leaky_slope", params.real("leaky_slope")},
                                                {"smooth_alpha", params.real("smooth_alpha")},
                                                {"smooth_rho", params.real("smooth_rho")},
                                                {"power", params.integer("power")}};
  const LayerShape input = Network::input_shape(context.data);
  const bool flat = !input.is_image();
  const auto& channels = params.integers("channels");
  check_room(input, params, channels.size());
  LayerStack stack;
  for (std::size_t b = 0; b < channels.size(); ++b) {
    std::map<std::string, Value> conv = activation;
    conv["channels"] = channels[b];
    conv["kernel"] = params.integer("kernel");
    conv["pool"] = params.str("pool");
    if (b == 0 && flat) {
      conv["in_channels"] = params.integer("in_channels");
      if (const auto height = params.integer_or_auto("height")) conv["height"] = *height;
    }
    const std::string name = "conv" + std::to_string(b + 1);
    stack.add(entry<ConvBlockLayer>("conv-block", conv, context, name, {name + ".W", name + ".b"}));
  }
  stack.add(entry<FlattenLayer>("flatten", {}, context, "features"));
  if (const std::int64_t hidden = params.integer("hidden"); hidden > 0) {
    stack.add(entry<LinearLayer>("linear", {{"out", hidden}}, context, "", {"hidden.W", "hidden.b"}));
    stack.add(entry<ActivationLayer>("activation", activation, context, "hidden"));
  }
  std::map<std::string, Value> head;
  if (const auto outputs = params.integer_or_auto("outputs")) head["out"] = *outputs;
  stack.add(entry<LinearLayer>("linear", head, context, "", {"head.W", "head.b"}));
  return stack;
}

ConvNetModel::ConvNetModel(const Params& params, Context& context)
    : Network(layers_of(params, context), context),
      init_scale_(params.real("init_scale")),
      conv_blocks_(params.integers("channels").size()),
      hidden_(params.integer("hidden") > 0) {}

void ConvNetModel::init(Rng& rng) {
  // The hand-written conv-net's draws, in its order: each block's filters, the hidden layer, the head.
  parameters().setZero();
  const auto draw = [&](const std::string& name, double gain) {
    MatMap W = block(name);
    rng.fill_normal(W, init_scale_ * std::sqrt(gain / static_cast<double>(W.cols())));
  };
  for (std::size_t b = 1; b <= conv_blocks_; ++b) draw("conv" + std::to_string(b) + ".W", 2.0);
  if (hidden_) draw("hidden.W", 2.0);
  draw("head.W", 1.0);
}

}  // namespace featurelab::std_pack
