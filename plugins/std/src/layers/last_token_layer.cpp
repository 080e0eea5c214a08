// One token's columns of every sample's row, forward; the gradient back into those columns.
#include "last_token_layer.hpp"

#include <featurelab/error.hpp>

namespace featurelab::std_pack {

Schema LastTokenLayer::schema() {
  Schema s;
  s.integer("position", -1, "the token read: 0 … T − 1 from the first, −1 … −T from the end (−1: the last)");
  return s;
}

LastTokenLayer::LastTokenLayer(const Params& params, Context&) : position_(params.integer("position")) {}

LayerShape LastTokenLayer::build(const LayerShape& in, LayerBuilder&) {
  if (!in.is_sequence()) {
    throw Error("last-token reads one token of a sequence {T, d}, not " + in.describe() +
                "; put it after a layer that gives a sequence (embedding, attention, linear on tokens)");
  }
  const Index T = in.dims[0];
  const Index t = position_ < 0 ? T + position_ : position_;
  if (t < 0 || t >= T) {
    throw Error("position = " + std::to_string(position_) + " is outside the sequence of " + std::to_string(T) +
                " tokens; use 0 … " + std::to_string(T - 1) + " or −1 … −" + std::to_string(T));
  }
  width_ = in.dims[1];
  first_ = t * width_;
  return LayerShape::flat(width_);
}

void LastTokenLayer::forward(const LayerWeights&, ConstMatRef in, MatRef out, LayerTape&) const {
  out = in.middleCols(first_, width_);
}

void LastTokenLayer::backward(const LayerPass& pass, ConstMatRef dout, LayerGrads&) const {
  if (!pass.want_din) return;
  pass.din.setZero();
  pass.din.middleCols(first_, width_) = dout;
}

}  // namespace featurelab::std_pack
