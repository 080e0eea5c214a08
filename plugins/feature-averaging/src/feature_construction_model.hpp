// Model `feature-construction`: the hand-built networks of Li et al. 2024, as fixed-weight
// two-layer ReLU models f(x) = a·ReLU(Wx + b) over the distribution's centres and partition:
//   average    (App. D.1, f_θavg)  ReLU(⟨Σ_{J+} μ_j, x⟩ + b+) − ReLU(⟨Σ_{J−} μ_j, x⟩ + b−): accurate (Thm D.1),
//              broken at δ = Ω(√(d/k)) (Thm D.2); b = 0 gives Def. 4.1's f_FA up to scale
//   decoupled  (Thm D.3, f_dec)    Σ_{J+} ReLU(⟨μ_j, x⟩ − d/2) − Σ_{J−} ReLU(⟨μ_l, x⟩ − d/2): robust to √d/3
//   prop48     (Prop. 4.8)         k outputs f_j = ReLU(⟨μ_j + Σ_{l on j's side} μ_l, x⟩): tiny CE loss, yet
//              its binary readout breaks at Ω(√(d/k))
// Nothing is trainable; input gradients are exact, so attacks run on them as on trained models.
#pragma once

#include "cluster_geometry.hpp"

#include <featurelab/model.hpp>

namespace featurelab::feature_averaging_pack {

class FeatureConstructionModel : public featurelab::Model {
 public:
  static constexpr featurelab::Doc kDoc =
      "Fixed networks of Li et al.: average (f_θavg, biases b±), decoupled (f_dec, Thm D.3), prop48 (Prop. 4.8, k "
      "outputs), built from the distribution's centres and partition.";
  static featurelab::Schema schema();
  static featurelab::ContractData contract_data() { return clusters_contract(); }
  FeatureConstructionModel(const featurelab::Params& params, featurelab::Context& context);
  featurelab::Index outputs() const override { return outputs_; }
  void init(featurelab::Rng& rng) override;
  void forward(featurelab::ConstMatRef X, featurelab::MatRef out) override;
  void backward(featurelab::ConstMatRef X, featurelab::ConstMatRef dout, featurelab::VecRef grad) override;
  void input_gradient(featurelab::ConstMatRef X, featurelab::ConstMatRef dout, featurelab::MatRef dX) override;

 private:
  featurelab::BlockHandle W_block_, b_block_, a_block_;
  featurelab::Index outputs_ = 1;
  featurelab::Mat W_, b_, a_;  // the construction, copied into the blocks by init()
  featurelab::Mat Z_, H_, dH_;
};

}  // namespace featurelab::feature_averaging_pack
