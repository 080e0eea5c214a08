// Layers: each registered layer alone in a network, on the first of a few small inputs it builds on
// (flat features, a sequence of tokens, a channels-first image; token ids for a layer that reads them):
// outputs finite, the parameter gradient against finite differences at and away from its
// initialisation, the input gradient likewise, and each hook point answering. A layer's backward pass
// is checked once here, in float and (the sanitized build) in double, for every network that uses it.
#include "setup.hpp"

#include <featurelab/gradient_check.hpp>
#include <featurelab/network.hpp>

#include <catch2/catch.hpp>

#include <cmath>

using namespace featurelab;

namespace {

struct Input {
  const char* what;
  DataSpec spec;
  // Layers before the one under test: data stores images channels-first, and a layer that reads only what
  // conv2d writes (pool: channels-last) gets a 1×1 conv2d in front (checked along with it).
  std::vector<ComponentSpec> before;
};

std::vector<Input> inputs() {
  DataSpec flat = testing::spec(5, 3);
  DataSpec sequence = testing::spec(12, 3);
  sequence.shape.dims = {3, 4};
  DataSpec image = testing::spec(2 * 6 * 6, 3);
  image.shape.dims = {2, 6, 6};
  // A channels-last image is what conv2d writes (pool reads only that): the contract's data stores it so.
  return {{"flat, 5 features", flat, {}},
          {"a sequence of 3 tokens × 4", sequence, {}},
          {"a 2×6×6 image", image, {}},
          {"a 2×6×6 image through a 1×1 conv2d (channels last)", image,
           {testing::layer("std:conv2d", {{"channels", std::int64_t(2)}, {"kernel", std::int64_t(1)}})}}};
}

}  // namespace

TEST_CASE("layers: gradients against finite differences, inputs, hook points") {
  contract::for_each_component(Kind::Layer, [](const contract::Entry& entry) {
    const ComponentSpec layer = testing::layer(entry.id(), contract::params_of(entry));
    std::shared_ptr<Model> model;
    DataSpec spec;
    std::string tried;
    std::size_t position = 0;
    for (const Input& input : inputs()) {
      try {
        std::vector<ComponentSpec> network = input.before;
        network.push_back(layer);
        position = input.before.size();
        model = contract::harness().make<Model>("std:network", {{"layer", testing::layers(network)}}, input.spec);
        spec = input.spec;
        INFO("input: " << input.what);
        break;
      } catch (const Error& e) {
        tried += std::string("\n  ") + input.what + ": " + e.what();
      }
    }
    if (!model) FAIL("the layer builds on none of the contract's inputs:" << tried);
    const auto* network = dynamic_cast<const Network*>(model.get());
    REQUIRE(network);
    const Index vocabulary = network->layers().entries()[position].layer->token_vocabulary();

    Rng rng(3);
    model->init(rng);
    Dataset data;
    data.X.resize(contract::kBatchRows, spec.dim);
    if (vocabulary > 0) {
      for (Index i = 0; i < data.X.size(); ++i) data.X.data()[i] = static_cast<Scalar>(rng.integer(0, vocabulary - 1));
    } else {
      rng.fill_normal(data.X);
    }
    data.y = IVec::Zero(contract::kBatchRows);
    data.classes = spec.classes;
    const Batch batch = Batch::of(data);
    Mat out(batch.n, model->outputs());
    model->forward(batch.X(), out);
    contract::require_finite(out, "outputs");

    contract::WeightedOutputs loss(31);
    const auto at_init = check_gradient(*model, loss, batch, contract::gradient_options());
    INFO("parameter gradient at init:\n" << at_init.report);
    CHECK(at_init.ok);
    const Index p = model->trainable_size();
    if (p > 0) {
      Mat noise(p, 1);
      rng.fill_normal(noise);
      const double rms = static_cast<double>(model->parameters().head(p).norm()) / std::sqrt(double(p));
      model->parameters().head(p) += static_cast<Scalar>(0.1 * (rms > 0 ? rms : 1.0)) * noise.col(0);
      const auto moved = check_gradient(*model, loss, batch, contract::gradient_options());
      INFO("parameter gradient away from init:\n" << moved.report);
      CHECK(moved.ok);
    }
    if (vocabulary == 0) {
      const auto input = check_input_gradient(*model, batch, contract::gradient_options());
      INFO("input gradient:\n" << input.report);
      CHECK(input.ok);
    }
    for (const auto& hook : model->hook_points()) {
      INFO("hook point " << hook.name << " (" << hook.shape << ")");
      Mat features;
      model->hook(hook.name, batch.X(), features);
      CHECK(features.rows() == batch.n);
      contract::require_finite(features, "hook " + hook.name);
    }
  });
}
