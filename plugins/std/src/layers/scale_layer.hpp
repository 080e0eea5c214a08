// Layer `scale`: y = c·x for a constant c: factor, divided by the input's width m (or √m) when asked, as
// the 1/m and 1/√m readouts of mean-field and NTK scalings.
#pragma once

#include <featurelab/layer.hpp>

#include <string>

namespace featurelab::std_pack {

class ScaleLayer : public Layer {
 public:
  static constexpr Doc kDoc = "Multiplies by a constant: factor, or factor/m or factor/√m for an input of width m.";
  static Schema schema();
  ScaleLayer(const Params& params, Context& context);

  LayerShape build(const LayerShape& in, LayerBuilder& builder) override;
  void forward(const LayerWeights& weights, ConstMatRef in, MatRef out, LayerTape& tape) const override;
  void backward(const LayerPass& pass, ConstMatRef dout, LayerGrads& grads) const override;

 private:
  double factor_;
  std::string divide_by_;
  Scalar c_ = 1;
};

}  // namespace featurelab::std_pack
