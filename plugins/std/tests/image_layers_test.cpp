// The image layers conv2d, pool, conv-block and flatten: conv-block is conv2d → activation → pool to the bit,
// std conv-net (a preset of them) is the network its layers spell in TOML (outputs, each block's gradient and the
// input gradient, to the bit), convolutions and pooling worked by hand, gradients against finite differences
// (strides, valid padding, overlapping windows, both image layouts), and the errors of layers that do not fit
// their input.
#include "std_harness.hpp"

#include <featurelab/gradient_check.hpp>
#include <featurelab/loss.hpp>
#include <featurelab/testing.hpp>
#include <featurelab/threads.hpp>

#include <catch2/catch.hpp>

#include <string>
#include <vector>

using namespace featurelab;
using featurelab::testing::layer;
using featurelab::testing::layers;
using std_test::harness;
using std_test::check_same_bits_on_threads;
using std_test::Overrides;

namespace {

Mat normal_matrix(Index rows, Index cols, std::uint64_t seed) {
  Mat m(rows, cols);
  Rng rng(seed);
  rng.fill_normal(m);
  return m;
}

double relative_error(const Mat& got, const Mat& expected) {
  return static_cast<double>((got - expected).norm()) / std::max(1e-30, static_cast<double>(expected.norm()));
}

// The data of a test: flat rows, or (dims given) images stored channels first.
DataSpec image_spec(Index channels, Index height, Index width, int classes, bool image_shape) {
  DataSpec spec = testing::spec(channels * height * width, classes);
  if (image_shape) spec.shape.dims = {channels, height, width};
  return spec;
}

Dataset labelled(Index n, Index dim, int classes, std::uint64_t seed) {
  Dataset d;
  d.X = normal_matrix(n, dim, seed);
  d.y.resize(n);
  for (Index i = 0; i < n; ++i) d.y(i) = static_cast<std::int32_t>(i % classes);
  d.classes = classes;
  return d;
}

ComponentSpec renamed(ComponentSpec spec, std::vector<std::string> blocks) {
  spec.block_names = std::move(blocks);
  return spec;
}

// conv-net's architecture as layers, its blocks named as conv-net names them: per block
// conv2d → relu → pool, then flatten, [linear(h) → relu], linear. On flat data the first conv2d reads the
// rows as conv-net does (in_channels, height).
Value conv_net_layers(const std::vector<std::int64_t>& channels, const std::string& pool, std::int64_t hidden,
                      const Overrides& first_conv) {
  std::vector<ComponentSpec> list;
  for (std::size_t b = 0; b < channels.size(); ++b) {
    Overrides conv{{"channels", channels[b]}, {"kernel", std::int64_t(3)}};
    if (b == 0) conv.insert(first_conv.begin(), first_conv.end());
    const std::string name = "conv" + std::to_string(b + 1);
    list.push_back(renamed(layer("conv2d", conv), {name + ".W", name + ".b"}));
    list.push_back(layer("relu"));
    list.push_back(layer("pool", {{"mode", pool}}));
  }
  list.push_back(layer("flatten"));
  if (hidden > 0) {
    list.push_back(renamed(layer("linear", {{"out", hidden}}), {"hidden.W", "hidden.b"}));
    list.push_back(layer("relu"));
  }
  list.push_back(renamed(layer("linear"), {"head.W", "head.b"}));
  return layers(list);
}

// Outputs, the gradient of every block (found by name) and the input gradient of two models with the same
// parameters, on X and a random d(output).
void require_equal_models(Model& reference, Model& composed, const Mat& X, double tolerance) {
  REQUIRE(reference.blocks().size() == composed.blocks().size());
  for (const auto& b : reference.blocks()) {
    INFO("block " << b.name);
    const ParamBlock* same = composed.find_block(b.name);
    REQUIRE(same != nullptr);
    REQUIRE(same->rows == b.rows);
    REQUIRE(same->cols == b.cols);
    composed.block(b.name) = reference.block(b.name);
  }
  REQUIRE(reference.outputs() == composed.outputs());
  Mat expected(X.rows(), reference.outputs()), got(X.rows(), composed.outputs());
  reference.forward(X, expected);
  composed.forward(X, got);
  CHECK(relative_error(got, expected) <= tolerance);
  const Mat dout = normal_matrix(X.rows(), reference.outputs(), 17);
  Vec g_reference(reference.trainable_size()), g_composed(composed.trainable_size());
  REQUIRE(g_reference.size() == g_composed.size());
  reference.backward(X, dout, g_reference);
  composed.backward(X, dout, g_composed);
  for (const auto& b : reference.blocks()) {
    const ParamBlock* c = composed.find_block(b.name);
    INFO("gradient of " << b.name);
    CHECK(relative_error(g_composed.segment(c->offset, c->size()), g_reference.segment(b.offset, b.size())) <= tolerance);
  }
  Mat dx_reference(X.rows(), X.cols()), dx_composed(X.rows(), X.cols());
  reference.input_gradient(X, dout, dx_reference);
  composed.input_gradient(X, dout, dx_composed);
  CHECK(relative_error(dx_composed, dx_reference) <= tolerance);
}

// Finite-difference checks of a network's parameter and input gradients under cross-entropy.
void check_network_gradients(const Value& network_layers, const DataSpec& spec, std::uint64_t seed, double step = 0) {
  auto model = harness().make<Model>("network", {{"layer", network_layers}}, spec);
  auto loss = harness().make<Loss>("cross-entropy", {}, spec);
  Rng rng(seed);
  model->init(rng);
  // Away from init, with non-zero biases.
  model->parameters() += 0.1 * Vec(normal_matrix(model->trainable_size(), 1, seed + 1).col(0));
  const Dataset data = labelled(6, spec.dim, spec.classes, seed + 2);
  GradientCheckOptions options;
  // The given step is a float one (kinks of max pooling); in double the checker's own, with its tighter tolerance.
  options.step = kDouble ? 0 : step;
  const auto parameters = check_gradient(*model, *loss, Batch::of(data), options);
  INFO(parameters.report);
  CHECK(parameters.ok);
  const auto input = check_input_gradient(*model, Batch::of(data), options);
  INFO(input.report);
  CHECK(input.ok);
}

}  // namespace

TEST_CASE("image layers: conv-block gives the bits of conv2d → activation → pool in a row") {
  struct Case {
    std::string what;
    DataSpec spec;
    Overrides conv, activation;
    std::string pool;
    std::int64_t pool_size;
    bool channels_last;  // a 1×1 conv2d in front: the block reads a channels-last image
  };
  const auto act = [](const std::string& name) { return Overrides{{"activation", name}}; };
  const Overrides eight{{"channels", std::int64_t(8)}, {"kernel", std::int64_t(3)}};
  const std::vector<Case> cases{
      {"relu, max, 8 channels (half a vector strip)", image_spec(2, 12, 10, 3, true), eight, act("relu"), "max", 2, false},
      {"smoothed-relu, average, 3 channels", image_spec(2, 12, 10, 3, true),
       {{"channels", std::int64_t(3)}}, act("smoothed-relu"), "average", 2, false},
      {"u² (not monotone): the maximum of φ(z), not of z; stride 2, valid, odd edges dropped", image_spec(1, 13, 11, 3, true),
       {{"channels", std::int64_t(3)}, {"stride", std::int64_t(2)}, {"padding", std::string("valid")}},
       {{"activation", std::string("poly")}, {"power", std::int64_t(2)}}, "max", 2, false},
      {"leaky-relu, 3×3 windows, 20 channels of 5×5 filters", image_spec(3, 9, 10, 3, true),
       {{"channels", std::int64_t(20)}, {"kernel", std::int64_t(5)}}, {{"activation", std::string("leaky-relu")}, {"leaky_slope", 0.1}},
       "max", 3, false},
      {"tanh (a pack's activation, a block at a time), max", image_spec(2, 10, 10, 3, true), eight, act("tanh"), "max", 2, false},
      {"identity, average, on a channels-last image", image_spec(2, 8, 8, 3, true), eight, act("identity"), "average", 2, true},
      {"relu, max, 16 channels on a channels-last image", image_spec(2, 8, 8, 3, true),
       {{"channels", std::int64_t(16)}}, act("relu"), "max", 2, true},
      {"relu, max, on flat data read as 2×6×6 images", image_spec(2, 6, 6, 3, false),
       {{"channels", std::int64_t(4)}, {"in_channels", std::int64_t(2)}}, act("relu"), "max", 2, false},
  };
  for (const Case& c : cases) {
    INFO(c.what);
    std::vector<ComponentSpec> in_a_row, block;
    if (c.channels_last) {
      for (auto* list : {&in_a_row, &block}) {
        list->push_back(renamed(layer("conv2d", {{"channels", std::int64_t(2)}, {"kernel", std::int64_t(1)}}), {"front.W", "front.b"}));
      }
    }
    Overrides fused = c.conv;
    fused.insert(c.activation.begin(), c.activation.end());
    fused["pool"] = c.pool;
    fused["pool_size"] = c.pool_size;
    block.push_back(renamed(layer("conv-block", fused), {"conv.W", "conv.b"}));
    in_a_row.push_back(renamed(layer("conv2d", c.conv), {"conv.W", "conv.b"}));
    in_a_row.push_back(layer("activation", c.activation));
    in_a_row.push_back(layer("pool", {{"mode", c.pool}, {"size", c.pool_size}}));
    for (auto* list : {&in_a_row, &block}) {
      list->push_back(layer("flatten"));
      list->push_back(renamed(layer("linear"), {"head.W", "head.b"}));
    }
    auto reference = harness().make<Model>("network", {{"layer", layers(in_a_row)}}, c.spec);
    auto composed = harness().make<Model>("network", {{"layer", layers(block)}}, c.spec);
    Rng rng(11);
    reference->init(rng);
    rng.fill_normal(reference->block("conv.b"), 0.3);
    // 23 images: parallel chunks of unequal size; ties in a max window (0 after ReLU) are frequent.
    require_equal_models(*reference, *composed, normal_matrix(23, c.spec.dim, 13), 0);
  }
}

TEST_CASE("image layers: conv-block's gradients against finite differences, and its errors") {
  SECTION("average pooling after a pack's activation (tanh), 3 channels of 3×3 filters") {
    check_network_gradients(layers({layer("conv-block", {{"channels", std::int64_t(3)}, {"activation", std::string("tanh")},
                                                         {"pool", std::string("average")}}),
                                    layer("flatten"), layer("linear")}),
                            image_spec(2, 6, 5, 3, true), 71);
  }
  SECTION("max pooling after ReLU, stride 2, then a second block on its channels-last output") {
    check_network_gradients(layers({layer("conv-block", {{"channels", std::int64_t(4)}, {"stride", std::int64_t(2)}}),
                                    layer("conv-block", {{"channels", std::int64_t(3)}, {"pool_size", std::int64_t(1)}}),
                                    layer("flatten"), layer("linear")}),
                            image_spec(2, 9, 8, 3, true), 81, 2e-3);  // a small step: max pooling's kinks
  }
  CHECK_THROWS_WITH(harness().make<Model>("network",
                                          {{"layer", layers({layer("conv-block", {{"channels", std::int64_t(2)}, {"pool_size", std::int64_t(4)}}),
                                                             layer("flatten"), layer("linear")})}},
                                          image_spec(1, 6, 3, 2, true)),
                    Catch::Contains("model.layer.0") && Catch::Contains("4×4 pooling window does not fit the 6×3 map") &&
                        Catch::Contains("pool_size ≤ 3"));
}

TEST_CASE("image layers: std conv-net is conv2d → relu → pool ×2 → flatten → linear written as layers") {
  struct Case {
    Index channels, height, width;
    std::string pool;
    std::int64_t hidden;
  };
  // 12×10 → 6×5 → 3×2 (the second pooling drops an odd column); 28×28 rows are two tiles of positions in conv2d.
  for (const Case& c : {Case{2, 12, 10, "max", 0}, Case{2, 12, 10, "average", 0}, Case{2, 12, 10, "max", 5},
                        Case{2, 12, 10, "average", 5}, Case{2, 28, 28, "max", 0}}) {
    INFO(c.channels << "×" << c.height << "×" << c.width << ", pool = " << c.pool << ", hidden = " << c.hidden);
    const std::vector<std::int64_t> channels{8, 16};
    const DataSpec flat = image_spec(c.channels, c.height, c.width, 3, false);
    auto conv_net = harness().make<Model>(
        "conv-net",
        {{"channels", channels}, {"kernel", std::int64_t(3)}, {"in_channels", std::int64_t(c.channels)},
         {"height", std::int64_t(c.height)}, {"pool", c.pool}, {"hidden", c.hidden}},
        flat);
    Rng rng(3);
    conv_net->init(rng);
    rng.fill_normal(conv_net->block("conv1.b"), 0.2);
    rng.fill_normal(conv_net->block("conv2.b"), 0.2);
    const Mat X = normal_matrix(40, flat.dim, 5);
    {
      INFO("flat data read as images by conv2d's in_channels and height");
      auto composed = harness().make<Model>(
          "network",
          {{"layer", conv_net_layers(channels, c.pool, c.hidden,
                                     {{"in_channels", std::int64_t(c.channels)}, {"height", std::int64_t(c.height)}})}},
          flat);
      require_equal_models(*conv_net, *composed, X, 0);
    }
    {
      INFO("data with an image shape (channels first)");
      const DataSpec image = image_spec(c.channels, c.height, c.width, 3, true);
      auto composed = harness().make<Model>("network", {{"layer", conv_net_layers(channels, c.pool, c.hidden, {})}}, image);
      require_equal_models(*conv_net, *composed, X, 0);
      // Each layer's output shape, as hook points say it.
      const auto hooks = composed->hook_points();
      CHECK(hooks[0].doc.find(std::to_string(8) + "×" + std::to_string(c.height) + "×" + std::to_string(c.width) +
                               " image (channels last)") != std::string::npos);
    }
  }
}

TEST_CASE("image layers: convolutions and pooling worked by hand") {
  // One 4×4 grey image; a 3×3 filter that copies its centre gives the image back (same padding, stride 1).
  Mat image(1, 16);
  image << 1, -2, 3, 0,  //
      -1, 5, -4, 2,      //
      0, -3, -1, -2,     //
      7, 1, 2, 6;
  const DataSpec grey = image_spec(1, 4, 4, 2, true);
  auto copy = harness().make<Model>(
      "network", {{"layer", layers({layer("conv2d", {{"channels", std::int64_t(1)}}, "conv"), layer("flatten")})}}, grey);
  copy->block("conv.W").setZero();
  copy->block("conv.W")(0, 4) = 1;
  copy->block("conv.b").setConstant(0.5);
  Mat out(1, 16);
  copy->forward(image, out);
  CHECK(out == (image.array() + Scalar(0.5)).matrix());

  // A 2×2 filter of ones, stride 2, no border: the four quadrants' sums (4×4 → 2×2).
  auto sums = harness().make<Model>(
      "network",
      {{"layer", layers({layer("conv2d", {{"channels", std::int64_t(1)}, {"kernel", std::int64_t(2)}, {"stride", std::int64_t(2)},
                                           {"padding", std::string("valid")}, {"bias", false}},
                               "conv"),
                         layer("flatten")})}},
      grey);
  REQUIRE(sums->outputs() == 4);
  sums->block("conv.W").setOnes();
  Mat quadrants(1, 4);
  sums->forward(image, quadrants);
  Mat expected(1, 4);
  expected << 3, 1, 5, 5;
  CHECK(quadrants == expected);

  // Two channels: the channels-last output of a 1×1 convolution that swaps them, flattened position after
  // position (H·W·C), against the channels-first input C·H·W.
  const DataSpec two = image_spec(2, 2, 3, 2, true);
  auto swap = harness().make<Model>(
      "network",
      {{"layer", layers({layer("conv2d", {{"channels", std::int64_t(2)}, {"kernel", std::int64_t(1)}, {"bias", false}}, "conv"),
                         layer("flatten")})}},
      two);
  swap->block("conv.W") << 0, 1, 1, 0;
  Mat planes(1, 12);
  planes << 1, 2, 3, 4, 5, 6,  // channel 0, rows of 3
      10, 20, 30, 40, 50, 60;   // channel 1
  Mat swapped(1, 12), positions(1, 12);
  swap->forward(planes, swapped);
  positions << 10, 1, 20, 2, 30, 3, 40, 4, 50, 5, 60, 6;
  CHECK(swapped == positions);

  // Pooling the identity convolution's output: max, average, and overlapping 3×3 windows at stride 1.
  const auto pooled = [&](const Overrides& pool) {
    auto net = harness().make<Model>(
        "network", {{"layer", layers({layer("conv2d", {{"channels", std::int64_t(1)}, {"bias", false}}, "conv"),
                                      layer("pool", pool), layer("flatten")})}},
        grey);
    net->block("conv.W").setZero();
    net->block("conv.W")(0, 4) = 1;
    Mat result(1, net->outputs());
    net->forward(image, result);
    return result;
  };
  Mat max_quadrants(1, 4), mean_quadrants(1, 4), max_windows(1, 4);
  max_quadrants << 5, 3, 7, 6;
  mean_quadrants << 0.75, 0.25, 1.25, 1.25;
  max_windows << 5, 5, 7, 6;
  CHECK(pooled({}) == max_quadrants);
  CHECK(pooled({{"mode", std::string("average")}}) == mean_quadrants);
  CHECK(pooled({{"size", std::int64_t(3)}, {"stride", std::int64_t(1)}}) == max_windows);
  // A 5×5 map under 2×2 windows: the last row and column are dropped (conv-net's odd edge).
  const DataSpec odd = image_spec(1, 5, 5, 2, true);
  auto edge = harness().make<Model>(
      "network", {{"layer", layers({layer("conv2d", {{"channels", std::int64_t(1)}}), layer("pool"), layer("flatten")})}}, odd);
  CHECK(edge->outputs() == 4);
}

TEST_CASE("image layers: gradients against finite differences") {
  SECTION("conv2d stride 2 without padding on channels-first data, overlapping average pooling, conv2d reading its input directly") {
    // 2×7×7 → conv 3×3, stride 2, valid → 3×3×3 → average 2×2, stride 1 → 3×2×2 → conv 2×2 valid → 2×1×1 → linear
    check_network_gradients(
        layers({layer("conv2d", {{"channels", std::int64_t(3)}, {"stride", std::int64_t(2)}, {"padding", std::string("valid")}}),
                layer("tanh"), layer("pool", {{"mode", std::string("average")}, {"stride", std::int64_t(1)}}),
                layer("conv2d", {{"channels", std::int64_t(2)}, {"kernel", std::int64_t(2)}, {"padding", std::string("valid")},
                                 {"init", std::string("uniform")}}),
                layer("flatten"), layer("linear")}),
        image_spec(2, 7, 7, 3, true), 21, 2e-3);
  }
  SECTION("conv2d stride 2 with same padding on flat data and on a channels-last image, max pooling") {
    // flat 1×6×5 → conv 3×3 same, stride 2 → 3×3×3 → conv 3×3 same, stride 2 → 2×2×2 → max 2×2 → 2×1×1 → linear
    check_network_gradients(
        layers({layer("conv2d", {{"channels", std::int64_t(3)}, {"stride", std::int64_t(2)}, {"height", std::int64_t(6)}}),
                layer("tanh"), layer("conv2d", {{"channels", std::int64_t(2)}, {"stride", std::int64_t(2)}, {"init", std::string("fan-in")}}),
                layer("pool"), layer("flatten"), layer("linear")}),
        image_spec(1, 6, 5, 3, false), 31, 2e-3);  // a small step: max pooling's kinks
  }
  SECTION("conv2d with output channels in one and a half, and in two and a half vector strips; rows wider than a tile") {
    // 3×5×31 channels first → conv 5×5 same, 20 channels → 20×5×31 → conv 3×3 valid, 40 channels → 40×3×29 → linear.
    // 20 and 40 channels fill partial strips of 16 (or 8) lanes; 31 and 29 positions a row are several tiles and a rest.
    check_network_gradients(layers({layer("conv2d", {{"channels", std::int64_t(20)}, {"kernel", std::int64_t(5)}}), layer("tanh"),
                                    layer("conv2d", {{"channels", std::int64_t(40)}, {"padding", std::string("valid")},
                                                     {"init", std::string("uniform")}}),
                                    layer("flatten"), layer("linear")}),
                            image_spec(3, 5, 31, 3, true), 61, 2e-3);
  }
  SECTION("flatten of a channels-first image and of a channels-last one") {
    check_network_gradients(layers({layer("flatten"), layer("linear", {{"out", std::int64_t(4)}}), layer("tanh"), layer("linear")}),
                            image_spec(3, 4, 5, 3, true), 41);
    check_network_gradients(layers({layer("conv2d", {{"channels", std::int64_t(3)}}), layer("flatten"), layer("linear")}),
                            image_spec(2, 3, 4, 3, true), 51);
    // Its output is its input's values as they lie.
    const DataSpec spec = image_spec(3, 4, 5, 3, true);
    auto net = harness().make<Model>("network", {{"layer", layers({layer("flatten"), layer("linear")})}}, spec);
    Rng rng(1);
    net->init(rng);
    const Mat X = normal_matrix(4, spec.dim, 2);
    Mat flat;
    net->hook("0", X, flat);
    CHECK(flat == X);
  }
}

TEST_CASE("image layers: conv-net gives the same bits on one, two and three threads") {
  // 23 images: chunks of unequal size; 5×5 filters of 16 and 32 channels, the contrastive proxies' shape.
  const DataSpec spec = image_spec(1, 28, 28, 10, true);
  auto model = harness().make<Model>(
      "conv-net", {{"channels", std::vector<std::int64_t>{16, 32}}, {"kernel", std::int64_t(5)}, {"in_channels", std::int64_t(1)}}, spec);
  auto loss = harness().make<Loss>("cross-entropy", {}, spec);
  Rng rng(3);
  model->init(rng);
  check_same_bits_on_threads(*model, *loss, labelled(23, spec.dim, spec.classes, 7), spec.classes);
}

TEST_CASE("image layers: a layer that does not fit its input says what to change") {
  const auto make = [](std::vector<ComponentSpec> list, const DataSpec& spec) {
    return harness().make<Model>("network", {{"layer", layers(std::move(list))}}, spec);
  };
  const Overrides eight{{"channels", std::int64_t(8)}};
  const auto conv = [&](Overrides more) {
    more.insert(eight.begin(), eight.end());
    return layer("conv2d", more);
  };
  // Flat data that conv2d cannot read as images.
  CHECK_THROWS_WITH(make({conv({}), layer("flatten"), layer("linear")}, testing::spec(30, 2)),
                    Catch::Contains("model.layer.0") && Catch::Contains("no square image") && Catch::Contains("set height"));
  CHECK_THROWS_WITH(make({conv({{"in_channels", std::int64_t(7)}}), layer("flatten"), layer("linear")}, testing::spec(60, 2)),
                    Catch::Contains("set in_channels"));
  CHECK_THROWS_WITH(make({conv({{"in_channels", std::int64_t(2)}, {"height", std::int64_t(7)}}), layer("flatten"), layer("linear")},
                         testing::spec(60, 2)),
                    Catch::Contains("does not divide the 30 pixels"));
  CHECK_THROWS_WITH(make({conv({{"in_channels", std::int64_t(3)}}), layer("flatten"), layer("linear")}, image_spec(2, 6, 5, 2, true)),
                    Catch::Contains("image of 2 channels") && Catch::Contains("leave in_channels out"));
  // Kernels.
  CHECK_THROWS_WITH(make({conv({{"kernel", std::int64_t(4)}}), layer("flatten"), layer("linear")}, image_spec(1, 6, 6, 2, true)),
                    Catch::Contains("odd kernel") && Catch::Contains("padding = \"valid\""));
  CHECK_THROWS_WITH(make({conv({{"kernel", std::int64_t(7)}, {"padding", std::string("valid")}}), layer("flatten"), layer("linear")},
                         image_spec(1, 6, 5, 2, true)),
                    Catch::Contains("larger than the 6×5 image") && Catch::Contains("kernel ≤ 5"));
  CHECK_THROWS_WITH(make({conv({{"init_std", 0.1}, {"init_scale", 2.0}})}, image_spec(1, 6, 5, 2, true)),
                    Catch::Contains("not both"));
  CHECK_THROWS_WITH(make({layer("conv2d"), layer("flatten"), layer("linear")}, image_spec(1, 6, 5, 2, true)),
                    Catch::Contains("channels"));
  // Pooling.
  CHECK_THROWS_WITH(make({layer("pool"), layer("linear")}, testing::spec(36, 2)),
                    Catch::Contains("model.layer.0") && Catch::Contains("flat features") && Catch::Contains("put it after a conv2d"));
  CHECK_THROWS_WITH(make({layer("pool"), layer("flatten"), layer("linear")}, image_spec(1, 6, 6, 2, true)),
                    Catch::Contains("channels-first") && Catch::Contains("put it after a conv2d"));
  CHECK_THROWS_WITH(make({conv({}), layer("pool", {{"size", std::int64_t(4)}}), layer("flatten"), layer("linear")},
                         image_spec(1, 6, 3, 2, true)),
                    Catch::Contains("model.layer.1") && Catch::Contains("4×4 window does not fit the 6×3 map"));
  // A linear layer straight after an image.
  CHECK_THROWS_WITH(make({conv({}), layer("linear")}, image_spec(1, 6, 5, 2, true)), Catch::Contains("put a flatten layer before it"));
}

