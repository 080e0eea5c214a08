// Model `linear`: f(x) = W x + b, K outputs (one for binary data).
#pragma once

#include <featurelab/model.hpp>
#include <featurelab/preactivation.hpp>

namespace featurelab::std_pack {

class LinearModel : public Model, public LinearPreactivation {
 public:
  static constexpr Doc kDoc =
      "Linear model f(x) = Wx + b with one output per class (one for binary data): the baseline no "
      "homogeneous linear classifier beats on XOR clusters (Frei et al. 2022).";
  static Schema schema();
  LinearModel(const Params& params, Context& context);

  Index outputs() const override { return outputs_; }
  void init(Rng& rng) override;
  void forward(ConstMatRef X, MatRef out) override;                       // X: n×D -> n×K
  void backward(ConstMatRef X, ConstMatRef dout, VecRef grad) override;   // dout: n×K
  void input_gradient(ConstMatRef X, ConstMatRef dout, MatRef dX) override;

  // LinearPreactivation: Z = f(x) itself, the head is the identity.
  Index preactivation_width() const override { return outputs_; }
  void preactivations(ConstMatRef X, MatRef Z) override { forward(X, Z); }
  void head(ConstMatRef Z, MatRef out) override { out = Z; }
  void head_backward(ConstMatRef dout, MatRef dZ) override { dZ = dout; }
  void preactivation_backward(ConstMatRef X, ConstMatRef dZ, VecRef grad) override { backward(X, dZ, grad); }

 private:
  BlockHandle W_, b_;  // b_ empty without a bias
  Index outputs_;
  bool bias_;
  double init_scale_;
};

}  // namespace featurelab::std_pack
