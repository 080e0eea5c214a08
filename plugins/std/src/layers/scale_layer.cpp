// A constant factor, forward and backward.
#include "scale_layer.hpp"

#include <cmath>

namespace featurelab::std_pack {

Schema ScaleLayer::schema() {
  Schema s;
  s.real("factor", 1.0, "the constant c (before the division by the width)");
  s.choice("divide_by", "none", {"none", "width", "sqrt-width"},
           "divide by the input's width m (the last dimension): none, m (mean-field 1/m), or √m (NTK 1/√m)");
  return s;
}

ScaleLayer::ScaleLayer(const Params& params, Context&) : factor_(params.real("factor")), divide_by_(params.str("divide_by")) {}

LayerShape ScaleLayer::build(const LayerShape& in, LayerBuilder&) {
  const auto m = static_cast<double>(in.features());
  double c = factor_;
  if (divide_by_ == "width") c /= m;
  if (divide_by_ == "sqrt-width") c /= std::sqrt(m);
  c_ = static_cast<Scalar>(c);
  return in;
}

void ScaleLayer::forward(const LayerWeights&, ConstMatRef in, MatRef out, LayerTape&) const { out = c_ * in; }

void ScaleLayer::backward(const LayerPass& pass, ConstMatRef dout, LayerGrads&) const {
  if (pass.want_din) pass.din = c_ * dout;
}

}  // namespace featurelab::std_pack
