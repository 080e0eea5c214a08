// φ and φ' in one pass over fixed chunks of rows (the same bits on any number of threads).
#include "activation_layer.hpp"

#include <featurelab/threads.hpp>

namespace featurelab::std_pack {

Schema ActivationLayer::schema() {
  Schema s;
  Activation::declare(s);
  return s;
}

ActivationLayer::ActivationLayer(const Params& params, Context& context) : activation_(params, context) {}

LayerShape ActivationLayer::build(const LayerShape& in, LayerBuilder&) { return in; }

void ActivationLayer::forward(const LayerWeights&, ConstMatRef in, MatRef out, LayerTape& tape) const {
  Mat& slope = tape.buffer(0, in.rows(), in.cols());
  parallel_over_chunks(in.rows(), [&](Index, Index first, Index last) {
    activation_.apply(in.middleRows(first, last - first), out.middleRows(first, last - first),
                      slope.middleRows(first, last - first));
  }, in.size());
}

void ActivationLayer::backward(const LayerPass& pass, ConstMatRef dout, LayerGrads&) const {
  if (!pass.want_din) return;
  const Mat& slope = pass.tape.buffers[0];
  parallel_over_chunks(dout.rows(), [&](Index, Index first, Index last) {
    pass.din.middleRows(first, last - first).array() = dout.middleRows(first, last - first).array() * slope.middleRows(first, last - first).array();
  }, dout.size());
}

}  // namespace featurelab::std_pack
