// Layer `concat`: parallel branches on the same input, their outputs joined along the last dimension (a
// flat sample's features, each token's width, a channels-last image's channels). Each branch is one
// layer; a branch of several layers is a `sequential`:
//   [[model.layer]]
//   use = "concat"
//   branches = [ { use = "linear", out = 50 },
//                { use = "sequential", layers = [{ use = "linear", out = 50 }, { use = "tanh" }] } ]
// Every branch keeps the other dimensions (tokens, positions). Branch k's hook point is "<concat>.k".
#pragma once

#include <featurelab/layer_stack.hpp>

#include <vector>

namespace featurelab::std_pack {

class ConcatLayer : public Layer {
 public:
  static constexpr Doc kDoc =
      "Parallel branches joined along the last dimension: branches = [{ use = \"linear\", out = 50 }, { use = "
      "\"sequential\", layers = [...] }]; the input gradient is the sum of the branches'.";
  static Schema schema();
  static std::map<std::string, Value> test_params();
  ConcatLayer(const Params& params, Context& context);

  LayerShape build(const LayerShape& in, LayerBuilder& builder) override;
  void forward(const LayerWeights& weights, ConstMatRef in, MatRef out, LayerTape& tape) const override;
  void backward(const LayerPass& pass, ConstMatRef dout, LayerGrads& grads) const override;
  std::vector<const LayerStack*> sub_stacks() const override;

 private:
  std::vector<LayerStack> branches_;  // one layer each
  std::vector<Index> widths_;         // each branch's last dimension
  Index positions_ = 1;               // tokens or image positions: the rows of the per-position view
  Index width_ = 0;                   // the sum of widths_
};

}  // namespace featurelab::std_pack
