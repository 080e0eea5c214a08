// Layer `conv-block`: conv2d → activation → pool in one pass over each image, the block that image networks
// (conv-net, the CNNs of the image pipelines) repeat. Its output is the same bits as the three layers in a row
// (plugins/std/tests/image_layers_test.cpp compares them); what it saves is memory traffic. In a row, the three
// layers write the convolution's full-size map, the activation's output and its slope, and the pooled map, and
// read them back, and backward writes each full-size gradient once more: at conv-net's Fashion-MNIST setting
// (8 channels of 28×28 per image) about 120 KB an image, which made its training step memory-bound. Here each
// image's convolution, activation and pooling run while the image's map is in the cache (a buffer per chunk of
// images), and the tape keeps per pooled value only what backward needs:
//   max pooling      the window's entry that holds the maximum (the first among ties, as pool finds it) and
//                    φ' there; the gradient goes to that entry alone, dy · φ'(z)
//   average pooling  φ' at every entry; each entry gets dy / size² · φ'(z)
// Windows are size×size side by side (pool's default stride); an edge they do not reach is dropped and gets no
// gradient, as with pool.
//
// Parameters: conv2d's (channels, kernel, stride, padding, bias, init, ...), an activation's (activation =
// "relu", leaky_slope, ...), and pool (max or average) with pool_size. Blocks W and b, as conv2d's.
#pragma once

#include "conv2d_layer.hpp"

#include <featurelab/activation.hpp>

#include <vector>

namespace featurelab::std_pack {

class ConvBlockLayer : public Conv2dLayer {
 public:
  static constexpr Doc kDoc =
      "conv2d → activation → pool in one pass over each image: the same bits as the three layers in a row, without "
      "their full-size maps in memory (conv2d's parameters, an activation's, pool = max or average, pool_size).";
  static Schema schema();
  // The contract test builds it with a smooth activation: its finite differences would straddle ReLU's kinks,
  // which max pooling's choice already adds (std-tests check ReLU against conv2d → relu → pool exactly).
  static std::map<std::string, Value> test_params() {
    return {{"channels", std::int64_t(3)}, {"activation", std::string("tanh")}};
  }
  ConvBlockLayer(const Params& params, Context& context);

  LayerShape build(const LayerShape& in, LayerBuilder& builder) override;
  void forward(const LayerWeights& weights, ConstMatRef in, MatRef out, LayerTape& tape) const override;
  void backward(const LayerPass& pass, ConstMatRef dout, LayerGrads& grads) const override;

 private:
  // The tape's buffers after conv2d's: the convolution's map, the activation's values and (max pooling) its
  // slopes, per chunk of images; per pooled value of every image, max pooling's chosen entry (−1: none, a
  // window holding NaN) and φ' there, or average pooling's φ' at every entry of every image; the output's
  // gradient per chunk.
  enum Buffer : std::size_t { kMaps = kBuffers, kValues, kChunkSlopes, kChoices, kGates, kSlopes, kGradients };

  Activation activation_;
  bool max_;
  Index size_;
  Index pooled_height_ = 0, pooled_width_ = 0;
  std::vector<Index> offsets_;  // entry q of a window: offsets_[q] values after its first entry
};

}  // namespace featurelab::std_pack
