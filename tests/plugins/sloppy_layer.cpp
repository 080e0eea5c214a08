// Fixture pack `sloppy`: a layer whose backward pass forgets a factor (y = x², dy/dx written as x instead
// of 2x). Networks that use it train to the end with every job `ok`; `featurelab plugins check sloppy`
// and train.check_gradient must say which gradient is wrong.
#include <featurelab/pack.hpp>

namespace {

class SloppySquare : public featurelab::Layer {
 public:
  static constexpr featurelab::Doc kDoc = "y = x², with a backward pass missing its factor 2.";
  static featurelab::Schema schema() { return {}; }
  SloppySquare(const featurelab::Params&, featurelab::Context&) {}
  featurelab::LayerShape build(const featurelab::LayerShape& in, featurelab::LayerBuilder&) override { return in; }
  void forward(const featurelab::LayerWeights&, featurelab::ConstMatRef in, featurelab::MatRef out,
               featurelab::LayerTape&) const override {
    out.array() = in.array().square();
  }
  void backward(const featurelab::LayerPass& pass, featurelab::ConstMatRef dout, featurelab::LayerGrads&) const override {
    if (pass.want_din) pass.din.array() = pass.in.array() * dout.array();
  }
};

}  // namespace

FEATURELAB_PACK("sloppy", "1.0") { pack.add<SloppySquare>("sloppy-square"); }
