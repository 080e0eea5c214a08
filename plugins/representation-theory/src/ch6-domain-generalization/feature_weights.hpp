// Model `feature-weights` (Shi 2024 Sec. 6.4): f(z̃) = Σ_j w_j z̃_j, one output; the features Φ(x)_j = w_j z̃_j
// ("fine-tuning the impact of each fixed feature"); block "w" (1×d), zero init by default. Its "features" hook point
// backpropagates, so a [[regularizer]] of features (std nuclear-norm) can act on them.
#pragma once

#include "../contract_setups.hpp"

#include <featurelab/model.hpp>

namespace featurelab::representation_theory_pack {

class FeatureWeights : public featurelab::Model {
 public:
  static constexpr featurelab::Doc kDoc =
      "Shi 2024 Sec. 6.4: f = Σ_j w_j z̃_j over fixed features, one output; hook \"features\" = X·diag(w).";
  static featurelab::Schema schema();
  static featurelab::ContractData contract_data() { return dg_theory_contract(); }
  FeatureWeights(const featurelab::Params& params, featurelab::Context& context);

  featurelab::Index outputs() const override { return 1; }
  void init(featurelab::Rng& rng) override;
  void forward(featurelab::ConstMatRef X, featurelab::MatRef out) override;
  void backward(featurelab::ConstMatRef X, featurelab::ConstMatRef dout, featurelab::VecRef grad) override;
  void input_gradient(featurelab::ConstMatRef X, featurelab::ConstMatRef dout, featurelab::MatRef dX) override;
  std::vector<featurelab::HookSpec> hook_points() const override;
  void hook(const std::string& name, featurelab::ConstMatRef X, featurelab::Mat& out) override;
  void hook_backward(const std::string& name, featurelab::ConstMatRef X, featurelab::ConstMatRef dhook,
                     featurelab::VecRef grad) override;

 private:
  featurelab::BlockHandle w_;
  featurelab::Index dim_;
  double init_scale_;
};

}  // namespace featurelab::representation_theory_pack
