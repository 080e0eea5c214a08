// Layer `pool`: max or average pooling over size×size windows, stride apart (default: side by side), on the
// channels-last images that conv2d writes, each channel alone. An edge the windows do not reach is dropped:
// H' = (H − size)/stride + 1, so 2×2 pooling of a 7×7 map drops its last row and column (conv-net's pooling).
//
// Max pooling's backward pass sends each output's gradient to the entry of its window that is the maximum (the
// first, row by row, among ties: conv-net's choice), found again from the input and output; average
// pooling spreads it evenly, 1/size² to each entry of the window.
#pragma once

#include <featurelab/layer.hpp>

#include <vector>


namespace featurelab::std_pack {

class PoolLayer : public Layer {
 public:
  static constexpr Doc kDoc =
      "Max or average pooling of size×size windows (default 2×2, stride = size) over channels-last images (a conv2d's "
      "output); an edge the windows do not reach is dropped.";
  static Schema schema();
  PoolLayer(const Params& params, Context& context);

  LayerShape build(const LayerShape& in, LayerBuilder& builder) override;
  void forward(const LayerWeights& weights, ConstMatRef in, MatRef out, LayerTape& tape) const override;
  void backward(const LayerPass& pass, ConstMatRef dout, LayerGrads& grads) const override;

 private:
  // The input position of entry q (row by row) of output (y, x)'s window in image s (a row of the (n·H·W)×C view).
  Index window_row(Index s, Index y, Index x, Index q) const {
    return (s * height_ + y * stride_ + q / size_) * width_ + x * stride_ + q % size_;
  }

  bool max_;
  Index size_;
  Index stride_;
  Index channels_ = 0, height_ = 0, width_ = 0, out_height_ = 0, out_width_ = 0;
  std::vector<Index> offsets_;  // entry q of a window: offsets_[q] values after its first entry
};

}  // namespace featurelab::std_pack
