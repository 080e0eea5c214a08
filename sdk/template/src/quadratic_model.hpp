// Model `quadratic`: f(x) = w·x + ½ Σ_j q_j x_j², one output (a binary classifier). Small enough to
// read whole: the three functions a model implements (forward, backward, input_gradient) and
// its parameter blocks; tests/margins_test.cpp checks both gradients against finite differences.
#pragma once

#include <featurelab/model.hpp>

namespace margins_pack {

class QuadraticModel : public featurelab::Model {
 public:
  static constexpr featurelab::Doc kDoc =
      "f(x) = w·x + ½ Σ_j q_j x_j², one output; blocks w and q (1×D), initialised N(0, init_scale²).";
  static featurelab::Schema schema();

  QuadraticModel(const featurelab::Params& params, featurelab::Context& context);
  featurelab::Index outputs() const override { return 1; }
  void init(featurelab::Rng& rng) override;
  void forward(featurelab::ConstMatRef X, featurelab::MatRef out) override;
  void backward(featurelab::ConstMatRef X, featurelab::ConstMatRef dout, featurelab::VecRef grad) override;
  void input_gradient(featurelab::ConstMatRef X, featurelab::ConstMatRef dout, featurelab::MatRef dX) override;

 private:
  featurelab::BlockHandle w_, q_;  // kept from declare_block: no lookup by name in forward/backward
  double init_scale_;
  featurelab::Index dim_;
  featurelab::Mat squares_;  // X∘X of the last forward, reused by backward (no allocation per step)
};

}  // namespace margins_pack
