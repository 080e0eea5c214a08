// Layer `conv2d`: a k×k convolution with stride s, "same" (zero border k/2, odd k) or "valid" (no border)
// padding, and a bias: out(y, x, o) = b_o + Σ_{dy, dx, c} W_o,(dy, dx, c) · in(s·y + dy − p, s·x + dx − p, c).
//
// Input: an image, channels first (the data's, C×H×W per row) or channels last (a conv2d's or a pool's
// output); or flat data rows read as in_channels × height × width images, channels first, as conv-net
// reads them. Output: always channels last, {C_out, H', W'}, H' = (H + 2p − k)/s + 1.
//
// Blocks W (C_out × k²·C_in) and b (1×C_out). A filter's columns are ordered (dy, dx, channel), conv-net's
// order, so conv-net's conv1.W and conv1.b can be copied in as they are.
//
// The products read the images in place (conv2d_kernels.hpp): each image is copied once into a channels-last
// buffer inside its zero border (unless it already is one: channels last, "valid"), and its output positions
// are tiles of vector registers over the filters' taps; 8 output channels (or 8 input channels, for the input's
// gradient), which fill half an AVX-512 register, are computed two positions (∇W: two taps) a register, with the
// same bits (conv2d_kernels::correlate_paired, add_tap_gradients_paired). The backward pass: ∇W summed over each of a fixed
// number of image chunks in registers, the chunks added in order; the input's gradient the correlation of
// the output's gradient (spread s apart inside a border of k − 1) with the filters turned over. The chunks
// are fixed by the batch size alone, so results are the same bits on any number of threads.
//
// Initialisation (init), fan-in = k²·C_in:
//   he        W ~ N(0, 2/fan-in)       (conv-net's)
//   fan-in    W ~ N(0, 1/fan-in)
//   uniform   W, b ~ U(±1/√fan-in)      (PyTorch's default for nn.Conv2d)
// each std (or bound) times init_scale; init_std, a number, is the std (bound) itself. The bias starts at 0
// except with uniform.
#pragma once

#include "conv2d_kernels.hpp"

#include <featurelab/layer.hpp>
#include <featurelab/params.hpp>

#include <functional>
#include <map>
#include <optional>
#include <string>

namespace featurelab::std_pack {

class Conv2dLayer : public Layer {
 public:
  static constexpr Doc kDoc =
      "2-d convolution k×k, stride s, same or valid padding, with a bias; images in either layout (or flat data read "
      "as in_channels × height × width), channels-last images out; products read the images in place; init He, fan-in or uniform.";
  static Schema schema();
  // The contract test builds it with a few output channels (channels has no default).
  static std::map<std::string, Value> test_params() { return {{"channels", std::int64_t(3)}}; }
  Conv2dLayer(const Params& params, Context& context);

  LayerShape build(const LayerShape& in, LayerBuilder& builder) override;
  void init(const LayerWeights& weights, Rng& rng) override;
  void forward(const LayerWeights& weights, ConstMatRef in, MatRef out, LayerTape& tape) const override;
  void backward(const LayerPass& pass, ConstMatRef dout, LayerGrads& grads) const override;

 protected:
  // Each image i of `in` convolved into output(i, chunk) (positions × C_out, channels last), then finished(i, chunk)
  // called: on the job's threads, in the fixed chunks of images of parallel_over_chunks.
  void convolve(const LayerWeights& weights, ConstMatRef in, LayerTape& tape,
                const std::function<Scalar*(Index image, Index chunk)>& output,
                const std::function<void(Index image, Index chunk)>& finished) const;
  // The backward pass from each image's output gradient, gradient(i, chunk) (positions × C_out, channels last),
  // asked for once per image.
  void backward_from(const LayerPass& pass, LayerGrads& grads,
                     const std::function<const Scalar*(Index image, Index chunk)>& gradient) const;
  // The tape's buffers a subclass may use: numbers from kBuffers on.
  static constexpr std::size_t kBuffers = 15;
  Index out_channels() const { return out_channels_; }
  Index out_height() const { return out_height_; }
  Index out_width() const { return out_width_; }

 private:
  // The tape's buffers, by number: the filters as the kernels read them (taps × strips), the bias as one strip
  // row, one padded image per chunk, ∇W per chunk, the output's gradient per chunk (spread out; in whole
  // strips), the input's gradient per chunk (channels first, before it is transposed into din), the filters
  // turned over, ∇b per chunk; for 8 channels (conv2d_kernels::correlate_paired), the filters and bias paired, the
  // turned filters paired, a paired-up image (forward) or spread gradient (backward) per chunk, and the output's
  // gradient with each value twice per chunk (∇W).
  enum Buffer : std::size_t {
    kTaps, kBias, kPadded, kTapGrads, kSpread, kGradStrips, kInputGrad, kTurnedTaps, kBiasGrads,
    kPairedTaps, kPairedBias, kPairedTurnedTaps, kPairedUp, kPairedSpread, kPairedGrads
  };

  // Image `row`'s values channels last inside the zero border: the row itself when it already is that
  // (channels last, no border), else written into `padded`'s rows for `slot`.
  const Scalar* padded_image(const Scalar* row, Mat* padded, Index slot) const;
  // Channels last without a border: the input is its own padded buffer.
  bool reads_input_directly() const { return channels_last_ && pad_ == 0; }
  Index padded_positions() const { return padded_height_ * padded_width_; }

  // Settings.
  Index out_channels_;
  Index kernel_;
  Index stride_;
  bool same_;
  bool bias_;
  bool trainable_;
  std::string init_;
  std::optional<double> init_std_;
  double init_scale_;
  std::optional<std::int64_t> requested_in_channels_, requested_height_;

  // From build().
  bool channels_last_ = false;  // the input's layout (flat data is read channels first)
  Index in_channels_ = 0, height_ = 0, width_ = 0;
  Index pad_ = 0, padded_height_ = 0, padded_width_ = 0;
  Index out_height_ = 0, out_width_ = 0;
  Index patch_size_ = 0;  // k²·C_in
  conv2d_kernels::Geometry forward_;   // the convolution of a padded input image
  conv2d_kernels::Geometry backward_;  // the input gradient's: the spread output gradient against the turned filters
  Index spread_height_ = 0, spread_width_ = 0;
  LayerBlock W_, b_;
};

}  // namespace featurelab::std_pack
