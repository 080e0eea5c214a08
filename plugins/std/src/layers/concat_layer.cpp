// Branches on one input; outputs placed side by side per position; input gradients summed in branch order.
#include "concat_layer.hpp"

#include <featurelab/error.hpp>
#include <featurelab/testing.hpp>

namespace featurelab::std_pack {

Schema ConcatLayer::schema() {
  Schema s;
  s.components("branches", Kind::Layer,
               "the branches, one layer each (a `sequential` for several): [{ use = \"linear\", out = 50 }, ...]")
      .non_empty();
  return s;
}

std::map<std::string, Value> ConcatLayer::test_params() {
  return {{"branches", testing::layers({testing::layer("linear", {{"out", std::int64_t(2)}}), testing::layer("tanh")},
                                       "layer.branches")}};
}

ConcatLayer::ConcatLayer(const Params& params, Context& context) {
  std::size_t k = 0;
  for (const ComponentSpec& spec : params.components("branches")) {
    ComponentSpec one = spec;
    if (one.name.empty()) one.name = std::to_string(k);
    branches_.emplace_back(ComponentList{one}, context);
    ++k;
  }
}

std::vector<const LayerStack*> ConcatLayer::sub_stacks() const {
  std::vector<const LayerStack*> out;
  for (const auto& b : branches_) out.push_back(&b);
  return out;
}

LayerShape ConcatLayer::build(const LayerShape& in, LayerBuilder& builder) {
  if (in.layout == LayerShape::Layout::ChannelsFirst) {
    throw Error("concat joins along the last dimension; a channels-first image has its channels first: put a "
                "conv2d first (its output is channels-last), or flatten");
  }
  LayerShape joined;
  for (std::size_t k = 0; k < branches_.size(); ++k) {
    const LayerShape out = branches_[k].build(in, builder, builder.label());
    if (k == 0) {
      joined = out;
      positions_ = out.size() / out.features();
    } else if (out.layout != joined.layout || out.size() / out.features() != positions_ ||
               (out.is_image() && (out.dims[1] != joined.dims[1] || out.dims[2] != joined.dims[2])) ||
               (out.is_sequence() && out.dims[0] != joined.dims[0])) {
      throw Error("branch " + std::to_string(k) + " gives " + out.describe() + ", branch 0 " + joined.describe() +
                  "; concatenated branches may differ only in their last dimension");
    }
    widths_.push_back(out.features());
  }
  width_ = 0;
  for (Index w : widths_) width_ += w;
  if (joined.layout == LayerShape::Layout::Flat) return LayerShape::flat(width_);
  if (joined.is_sequence()) return LayerShape::sequence(joined.dims[0], width_);
  return LayerShape::image(width_, joined.dims[1], joined.dims[2], joined.layout);
}

void ConcatLayer::forward(const LayerWeights& weights, ConstMatRef in, MatRef out, LayerTape& tape) const {
  // Per position: out is (n·positions)×width, branch k's output (n·positions)×widths_[k] its columns [c, c + w).
  const Index rows = in.rows() * positions_;
  MatMap joined(out.data(), rows, width_);
  Index column = 0;
  for (std::size_t k = 0; k < branches_.size(); ++k) {
    StackTape& branch = tape.stack(k);
    branches_[k].forward(weights, in, branch);
    joined.middleCols(column, widths_[k]) = ConstMatMap(branch.outputs.back().data(), rows, widths_[k]);
    column += widths_[k];
  }
}

void ConcatLayer::backward(const LayerPass& pass, ConstMatRef dout, LayerGrads& grads) const {
  const Index n = pass.in.rows();
  const Index rows = n * positions_;
  ConstMatMap joined(dout.data(), rows, width_);
  Index column = 0;
  for (std::size_t k = 0; k < branches_.size(); ++k) {
    Mat& dbranch = pass.tape.buffer(2 * k, n, positions_ * widths_[k]);
    MatMap(dbranch.data(), rows, widths_[k]) = joined.middleCols(column, widths_[k]);
    Mat& din = pass.tape.buffer(2 * k + 1, n, pass.in.cols());
    branches_[k].backward(pass.weights, pass.in, pass.tape.stack(k), dbranch, din, pass.want_din, grads);
    if (pass.want_din) {
      if (k == 0) {
        pass.din = din;
      } else {
        pass.din += din;
      }
    }
    column += widths_[k];
  }
}

}  // namespace featurelab::std_pack
