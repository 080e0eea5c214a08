// Models: outputs of the declared shape, finite; the parameter gradient (at init and away from it)
// and the input gradient (where the model provides one) against finite differences; every hook
// point answers for a batch.
// The gradient is that of a fixed random weighting of the outputs, so it checks the model alone,
// whatever loss its outputs would feed.
#include "setup.hpp"

#include <featurelab/gradient_check.hpp>

#include <catch2/catch.hpp>

#include <cmath>

using namespace featurelab;

TEST_CASE("models: output shape, parameter and input gradients, hook points") {
  contract::for_each_component(Kind::Model, [](const contract::Entry& entry) {
    contract::Setup setup = contract::data_for(entry);
    auto model = contract::make<Model>(entry, setup);
    Rng rng(3);
    model->init(rng);
    const Batch batch = setup.batch();
    REQUIRE(model->outputs() > 0);
    Mat out(batch.n, model->outputs());
    model->forward(batch.X(), out);
    contract::require_finite(out, "outputs");
    contract::require_finite(model->parameters(), "parameters after init");

    contract::WeightedOutputs loss(29);
    const auto at_init = check_gradient(*model, loss, batch, contract::gradient_options());
    INFO("parameter gradient at init:\n" << at_init.report);
    CHECK(at_init.ok);

    // Away from the init as well: a symmetric init cancels the output to 0 (its rounding is all a
    // float finite difference would see) and leaves some blocks without gradient.
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
    try {
      const auto input = check_input_gradient(*model, batch, contract::gradient_options());
      INFO("input gradient:\n" << input.report);
      CHECK(input.ok);
    } catch (const Error& e) {
      // The SDK's default: the model does not provide input gradients (attacks refuse it).
      if (std::string(e.what()).find("does not provide input gradients") == std::string::npos) throw;
    }

    for (const auto& hook : model->hook_points()) {
      INFO("hook point " << hook.name << " (" << hook.shape << ")");
      Mat features;
      model->hook(hook.name, batch.X(), features);
      CHECK(features.rows() > 0);
      contract::require_finite(features, "hook " + hook.name);
    }
  });
}
