// Model `xor-oracle`: the reference network of Frei et al. eq. (1),
//   f*(x) = |⟨μ1, x⟩| − |⟨μ2, x⟩| = φ(⟨μ1,x⟩) + φ(⟨−μ1,x⟩) − φ(⟨μ2,x⟩) − φ(⟨−μ2,x⟩),
// as a fixed two-layer ReLU net (blocks W = [μ1; −μ1; μ2; −μ2], a = [1, 1, −1, −1]) over the
// distribution's means, so probes and attacks treat it as any trained net.
#pragma once

#include "xor_geometry.hpp"

#include <featurelab/model.hpp>

namespace featurelab::feature_amplification_pack {

class XorOracleModel : public featurelab::Model {
 public:
  static constexpr featurelab::Doc kDoc =
      "Reference classifier f*(x) = |<μ1,x>| − |<μ2,x>| (Frei et al. eq. 1) as a fixed width-4 ReLU net over the "
      "distribution's means.";
  static featurelab::Schema schema() { return featurelab::Schema{}; }
  static featurelab::ContractData contract_data() { return xor_contract(); }
  XorOracleModel(const featurelab::Params& params, featurelab::Context& context);
  featurelab::Index outputs() const override { return 1; }
  void init(featurelab::Rng& rng) override;
  void forward(featurelab::ConstMatRef X, featurelab::MatRef out) override;
  void backward(featurelab::ConstMatRef X, featurelab::ConstMatRef dout, featurelab::VecRef grad) override;
  void input_gradient(featurelab::ConstMatRef X, featurelab::ConstMatRef dout, featurelab::MatRef dX) override;

 private:
  featurelab::BlockHandle W_, a_;
  featurelab::Mat means_, Z_, dH_;
};

}  // namespace featurelab::feature_amplification_pack
