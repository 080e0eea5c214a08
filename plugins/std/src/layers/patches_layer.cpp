// f over the (n·P)×d patch rows at once; the per-sample sum over patches as P strided updates.
#include "patches_layer.hpp"

#include <featurelab/error.hpp>
#include <featurelab/testing.hpp>

namespace featurelab::std_pack {

namespace {
// Patch p's rows of f's output: n×k, every P-th row of the (n·P)×k block.
using PatchRows = Eigen::Map<const Mat, 0, Eigen::OuterStride<>>;
using MutablePatchRows = Eigen::Map<Mat, 0, Eigen::OuterStride<>>;
}  // namespace

Schema PatchesLayer::schema() {
  Schema s;
  s.components("layers", Kind::Layer,
               "the sub-network f applied to each patch (d -> k, flat): [{ use = \"linear\", out = 20, bias = false }, ...]")
      .non_empty();
  return s;
}

std::map<std::string, Value> PatchesLayer::test_params() {
  return {{"layers", testing::layers({testing::layer("linear", {{"out", std::int64_t(3)}}), testing::layer("tanh")},
                                     "layer.layers")}};
}

PatchesLayer::PatchesLayer(const Params& params, Context& context) : body_(params.components("layers"), context) {}

LayerShape PatchesLayer::build(const LayerShape& in, LayerBuilder& builder) {
  if (!in.is_sequence()) {
    throw Error("patches needs a sequence of patches (data of P patches × d, e.g. multi-view data), got " +
                in.describe());
  }
  patches_ = in.dims[0];
  patch_width_ = in.dims[1];
  const LayerShape out = body_.build(LayerShape::flat(patch_width_), builder, builder.label());
  if (out.layout != LayerShape::Layout::Flat) {
    throw Error("its layers must map a patch to flat outputs, got " + out.describe());
  }
  outputs_ = out.size();
  counts_.assign(static_cast<std::size_t>(patches_), Scalar(1));
  const auto& counts = builder.data().shape.patch_counts;
  if (builder.reads_data() && !counts.empty()) {
    if (static_cast<Index>(counts.size()) != patches_) {
      throw Error("the data's patch counts list " + std::to_string(counts.size()) + " patches, its shape " +
                  std::to_string(patches_) + " (a distribution bug)");
    }
    for (std::size_t p = 0; p < counts.size(); ++p) counts_[p] = static_cast<Scalar>(counts[p]);
    builder.weigh_patch_counts();
  }
  return LayerShape::flat(outputs_);
}

void PatchesLayer::forward(const LayerWeights& weights, ConstMatRef in, MatRef out, LayerTape& tape) const {
  const Index n = in.rows();
  StackTape& body = tape.stack(0);
  body_.forward(weights, ConstMatMap(in.data(), n * patches_, patch_width_), body);
  const Mat& f = body.outputs.back();  // (n·P)×k
  out.setZero();
  for (Index p = 0; p < patches_; ++p) {
    out += counts_[static_cast<std::size_t>(p)] *
           PatchRows(f.data() + p * outputs_, n, outputs_, Eigen::OuterStride<>(patches_ * outputs_));
  }
}

void PatchesLayer::backward(const LayerPass& pass, ConstMatRef dout, LayerGrads& grads) const {
  const Index n = pass.in.rows();
  Mat& df = pass.tape.buffer(0, n * patches_, outputs_);
  for (Index p = 0; p < patches_; ++p) {
    MutablePatchRows(df.data() + p * outputs_, n, outputs_, Eigen::OuterStride<>(patches_ * outputs_)) =
        counts_[static_cast<std::size_t>(p)] * dout;
  }
  const ConstMatMap patch_rows(pass.in.data(), n * patches_, patch_width_);
  MatMap din(pass.din.data(), pass.want_din ? n * patches_ : 0, patch_width_);
  body_.backward(pass.weights, patch_rows, pass.tape.stack(0), df, din, pass.want_din, grads);
}

}  // namespace featurelab::std_pack
