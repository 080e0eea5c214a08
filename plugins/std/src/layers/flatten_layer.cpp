// A batch row already holds its sample's values in the flat order: only the shape changes.
#include "flatten_layer.hpp"

namespace featurelab::std_pack {

Schema FlattenLayer::schema() { return Schema(); }

FlattenLayer::FlattenLayer(const Params&, Context&) {}

LayerShape FlattenLayer::build(const LayerShape& in, LayerBuilder&) { return LayerShape::flat(in.size()); }

void FlattenLayer::forward(const LayerWeights&, ConstMatRef in, MatRef out, LayerTape&) const { out = in; }

void FlattenLayer::backward(const LayerPass& pass, ConstMatRef dout, LayerGrads&) const {
  if (pass.want_din) pass.din = dout;
}

}  // namespace featurelab::std_pack
