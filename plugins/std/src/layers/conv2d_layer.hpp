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
// The products (im2col): the input is first copied into a channels-last buffer inside a zero border,
// ((n·Hp·Wp)×C, Hp = H + 2p), so that each of a patch's k rows is one run of k·C contiguous values; the
// patches of a chunk of images then form an (n·H'·W')×(k²·C) matrix, and the convolution is one product
// with Wᵀ. The backward pass rebuilds each chunk's patches from its input (a batch of one chunk finds its
// patches still on the tape): ∇W = Gᵀ·patches summed over the chunks in order, the input's gradient the
// patches' gradient G·W folded back (col2im) and read out in the input's own layout. The chunks' size
// depends on the shapes alone, so results are the same bits on any number of threads.
//
// Initialisation (init), fan-in = k²·C_in:
//   he        W ~ N(0, 2/fan-in)       (conv-net's)
//   fan-in    W ~ N(0, 1/fan-in)
//   uniform   W, b ~ U(±1/√fan-in)      (PyTorch's default for nn.Conv2d)
// each std (or bound) times init_scale; init_std, a number, is the std (bound) itself. The bias starts at 0
// except with uniform.
#pragma once

#include <featurelab/layer.hpp>

#include <map>
#include <featurelab/params.hpp>

#include <optional>
#include <string>

namespace featurelab::std_pack {

class Conv2dLayer : public Layer {
 public:
  static constexpr Doc kDoc =
      "2-d convolution k×k, stride s, same or valid padding, with a bias; images in either layout (or flat data read "
      "as in_channels × height × width), channels-last images out; im2col products; init He, fan-in or uniform.";
  static Schema schema();
  // The contract test builds it with a few output channels (channels has no default).
  static std::map<std::string, Value> test_params() { return {{"channels", std::int64_t(3)}}; }
  Conv2dLayer(const Params& params, Context& context);

  LayerShape build(const LayerShape& in, LayerBuilder& builder) override;
  void init(const LayerWeights& weights, Rng& rng) override;
  void forward(const LayerWeights& weights, ConstMatRef in, MatRef out, LayerTape& tape) const override;
  void backward(const LayerPass& pass, ConstMatRef dout, LayerGrads& grads) const override;

 private:
  // The tape's buffers, by number.
  enum Buffer : std::size_t { kPatches = 0, kPadded = 1, kPatchGrad = 2, kPaddedGrad = 3 };

  // The images `in` (a chunk's rows) as channels-last rows inside the zero border: a pointer to
  // (rows·Hp·Wp)×C values, in `padded` or, when the input already is that (channels last, no border;
  // padded is then null), in `in` itself.
  const Scalar* pad(ConstMatRef in, Mat* padded) const;
  // The patches of `images` images whose padded values start at `source`: patches' first images·H'·W' rows.
  void im2col(const Scalar* source, Index images, Mat& patches) const;
  // d(patches) of `images` images back to the gradient of their input rows `din`, in the input's layout,
  // through dpadded (null when the input is read directly: then straight into din).
  void col2im(const Mat& dpatches, Index images, Mat* dpadded, MatRef din) const;
  // Channels last without a border: the input is its own padded buffer.
  bool reads_input_directly() const { return channels_last_ && pad_ == 0; }

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
  Index patch_size_ = 0;    // k²·C_in
  Index chunk_images_ = 1;  // images per product, from the shapes alone
  LayerBlock W_, b_;
};

}  // namespace featurelab::std_pack
