// Layer `sequential`: a list of layers run in turn, y = f_L(… f_1(x)), as one layer: a branch of a
// concat, or a named block (its layers' hook points are "<name>.0", "<name>.1", ...).
#pragma once

#include <featurelab/layer_stack.hpp>

namespace featurelab::std_pack {

class SequentialLayer : public Layer {
 public:
  static constexpr Doc kDoc = "Layers run in turn as one layer (layers = [...]): a concat's branch, or a named block.";
  static Schema schema();
  static std::map<std::string, Value> test_params();
  SequentialLayer(const Params& params, Context& context);

  LayerShape build(const LayerShape& in, LayerBuilder& builder) override;
  void forward(const LayerWeights& weights, ConstMatRef in, MatRef out, LayerTape& tape) const override;
  void backward(const LayerPass& pass, ConstMatRef dout, LayerGrads& grads) const override;
  std::vector<const LayerStack*> sub_stacks() const override { return {&body_}; }

 private:
  LayerStack body_;
};

}  // namespace featurelab::std_pack
