// Model `linear-features` (Shi 2024 Sec. 6.3.1): Φ(x) = A x (A: k×D), then a linear head with bias (K outputs, one
// per class, as the official code's nn.Linear + cross-entropy); blocks "A", "head", "bias". Its "features" hook point
// backpropagates, so a [[regularizer]] of features (std nuclear-norm) can act on them.
#pragma once

#include "../contract_setups.hpp"

#include <featurelab/model.hpp>

#include <optional>

namespace featurelab::representation_theory_pack {

class LinearFeatures : public featurelab::Model {
 public:
  static constexpr featurelab::Doc kDoc =
      "Shi 2024 Sec. 6.3.1: features Φ(x) = Ax (k×D), then a linear head with bias, one output per class; "
      "hook \"features\".";
  static featurelab::Schema schema();
  static featurelab::ContractData contract_data() { return dg_toy_contract(); }
  LinearFeatures(const featurelab::Params& params, featurelab::Context& context);

  featurelab::Index outputs() const override { return outputs_; }
  void init(featurelab::Rng& rng) override;
  void forward(featurelab::ConstMatRef X, featurelab::MatRef out) override;
  void backward(featurelab::ConstMatRef X, featurelab::ConstMatRef dout, featurelab::VecRef grad) override;
  void input_gradient(featurelab::ConstMatRef X, featurelab::ConstMatRef dout, featurelab::MatRef dX) override;
  std::vector<featurelab::HookSpec> hook_points() const override;
  void hook(const std::string& name, featurelab::ConstMatRef X, featurelab::Mat& out) override;
  void hook_backward(const std::string& name, featurelab::ConstMatRef X, featurelab::ConstMatRef dhook,
                     featurelab::VecRef grad) override;

 private:
  featurelab::BlockHandle A_, head_, bias_;
  featurelab::Index dim_, width_, outputs_;
  double init_std_;
  std::optional<double> head_bound_;  // empty: auto
  featurelab::Mat F_, dF_;  // n×k features and their gradient, reused while n is unchanged
};

}  // namespace featurelab::representation_theory_pack
