// Layer `residual`: y = x + f(x), f the sub-network `layers` (e.g. layer-norm → linear → tanh, a pre-norm
// block), which must give back its input's shape. The backward pass is dy + f's backward of dy.
#pragma once

#include <featurelab/layer_stack.hpp>

namespace featurelab::std_pack {

class ResidualLayer : public Layer {
 public:
  static constexpr Doc kDoc =
      "Skip connection y = x + f(x) around a list of layers f (layers = [{ use = \"layer-norm\" }, ...]) that "
      "keeps the input's shape.";
  static Schema schema();
  static std::map<std::string, Value> test_params();
  ResidualLayer(const Params& params, Context& context);

  LayerShape build(const LayerShape& in, LayerBuilder& builder) override;
  void forward(const LayerWeights& weights, ConstMatRef in, MatRef out, LayerTape& tape) const override;
  void backward(const LayerPass& pass, ConstMatRef dout, LayerGrads& grads) const override;
  std::vector<const LayerStack*> sub_stacks() const override { return {&body_}; }

 private:
  LayerStack body_;
};

}  // namespace featurelab::std_pack
