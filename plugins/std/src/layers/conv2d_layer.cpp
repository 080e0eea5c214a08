// The convolution as im2col products over chunks of images: one product forward (patches·Wᵀ), two backward
// (Gᵀ·patches for ∇W, G·W for the patches' gradient, folded back by col2im).
#include "conv2d_layer.hpp"

#include <featurelab/error.hpp>
#include <featurelab/parallel_product.hpp>
#include <featurelab/threads.hpp>

#include <algorithm>
#include <cmath>

namespace featurelab::std_pack {

namespace {

// A chunk's patches hold about this many values (2 MB in float): few enough images that the im2col
// buffer stays near the cache between its writing and the product that reads it, and still tens of
// thousands of rows per product at 28×28 (chunks of 32 images measured 1.3× quicker than 256: bench/README.md round 10).
constexpr Index kChunkValues = Index(1) << 19;

std::string text(Index value) { return std::to_string(value); }

}  // namespace

Schema Conv2dLayer::schema() {
  Schema s;
  s.integer("channels", 16, "C_out: output channels (filters)").min(1).required();
  s.integer("kernel", 3, "k: k×k filters (odd with padding = \"same\")").min(1);
  s.integer("stride", 1, "s: the filters' step along each axis; the output is H' = (H + 2p − k)/s + 1 high").min(1);
  s.choice("padding", "same", {"same", "valid"},
           "same: a zero border of p = k/2 on each side (odd k; stride 1 keeps H×W), valid: no border (p = 0)");
  s.boolean("bias", true, "a bias b per output channel (trained with W unless trainable = false)");
  s.choice("init", "he", {"he", "fan-in", "uniform"},
           "initialisation of W (fan-in = k²·C_in): N(0, 2/fan-in) (He, conv-net's), N(0, 1/fan-in), or U(±1/√fan-in) "
           "for W and b (PyTorch's); each std (or bound) times init_scale");
  s.real("init_std", Automatic{"from init and init_scale"}, "the std of W (the bound of W and b with init = \"uniform\")")
      .min(0);
  s.real("init_scale", 1.0, "times the std (or bound) that init gives, as conv-net's init_scale").above(0);
  s.boolean("trainable", true, "whether W and b train; false: fixed at their initial values");
  s.integer("in_channels", Automatic{"1 on flat data; an image's own channels"},
            "C_in: on flat data (no image shape), each row is read as C_in×H×W, channels first").min(1);
  s.integer("height", Automatic{"√(D/C_in): square images; an image's own height"},
            "H: on flat data, the images' height; the width is D/(C_in·H)")
      .min(1);
  return s;
}

Conv2dLayer::Conv2dLayer(const Params& params, Context&)
    : out_channels_(params.integer("channels")),
      kernel_(params.integer("kernel")),
      stride_(params.integer("stride")),
      same_(params.str("padding") == "same"),
      bias_(params.boolean("bias")),
      trainable_(params.boolean("trainable")),
      init_(params.str("init")),
      init_std_(params.real_or_auto("init_std")),
      init_scale_(params.real("init_scale")),
      requested_in_channels_(params.integer_or_auto("in_channels")),
      requested_height_(params.integer_or_auto("height")) {
  if (init_std_ && init_scale_ != 1.0) {
    throw Error("init_std sets W's std itself and init_scale scales the std that init gives: set one of them, not both");
  }
}

LayerShape Conv2dLayer::build(const LayerShape& in, LayerBuilder& builder) {
  if (in.is_sequence()) {
    throw Error("conv2d takes images (or flat data read as images), not a sequence (" + in.describe() + ")");
  }
  if (in.is_image()) {
    in_channels_ = in.dims[0];
    height_ = in.dims[1];
    width_ = in.dims[2];
    channels_last_ = in.layout == LayerShape::Layout::ChannelsLast;
    if (requested_in_channels_ && *requested_in_channels_ != in_channels_) {
      throw Error("in_channels = " + text(*requested_in_channels_) + ", but its input is an image of " + text(in_channels_) +
                  " channels; leave in_channels out (it reads flat data as images)");
    }
    if (requested_height_ && *requested_height_ != height_) {
      throw Error("height = " + text(*requested_height_) + ", but its input is an image " + text(height_) +
                  " high; leave height out (it reads flat data as images)");
    }
  } else {
    // Flat data rows read as C×H×W, channels first: conv-net's reading (its in_channels and height).
    const Index dim = in.size();
    in_channels_ = requested_in_channels_.value_or(1);
    if (dim % in_channels_ != 0) {
      throw Error("the data's " + text(dim) + " inputs are not in_channels = " + text(in_channels_) +
                  " images of equal size; set in_channels to the images' channels (a divisor of " + text(dim) + ")");
    }
    const Index pixels = dim / in_channels_;
    if (requested_height_) {
      height_ = *requested_height_;
    } else {
      height_ = static_cast<Index>(std::lround(std::sqrt(static_cast<double>(pixels))));
      if (height_ * height_ != pixels) {
        throw Error("the data is flat and its " + text(pixels) + " pixels per channel (in_channels = " + text(in_channels_) +
                    ") are no square image; set height (the width is then D/(in_channels·height)) or in_channels");
      }
    }
    if (pixels % height_ != 0) {
      throw Error("height = " + text(height_) + " does not divide the " + text(pixels) + " pixels per channel (D/in_channels, " +
                  "in_channels = " + text(in_channels_) + "); set height to the images' height");
    }
    width_ = pixels / height_;
    channels_last_ = false;
  }
  if (same_ && kernel_ % 2 == 0) {
    throw Error("padding = \"same\" pads k/2 on each side and needs an odd kernel, but kernel = " + text(kernel_) +
                "; use kernel = " + text(kernel_ - 1) + " or " + text(kernel_ + 1) + ", or padding = \"valid\"");
  }
  if (!same_ && (kernel_ > height_ || kernel_ > width_)) {
    throw Error("kernel = " + text(kernel_) + " is larger than the " + text(height_) + "×" + text(width_) +
                " image, and padding = \"valid\" adds no border; use kernel ≤ " + text(std::min(height_, width_)) +
                ", or padding = \"same\"");
  }
  pad_ = same_ ? kernel_ / 2 : 0;
  padded_height_ = height_ + 2 * pad_;
  padded_width_ = width_ + 2 * pad_;
  out_height_ = (padded_height_ - kernel_) / stride_ + 1;
  out_width_ = (padded_width_ - kernel_) / stride_ + 1;
  patch_size_ = kernel_ * kernel_ * in_channels_;
  chunk_images_ = std::max<Index>(1, kChunkValues / (out_height_ * out_width_ * patch_size_));
  W_ = builder.declare("W", out_channels_, patch_size_, trainable_);
  if (bias_) b_ = builder.declare("b", 1, out_channels_, trainable_);
  return LayerShape::image(out_channels_, out_height_, out_width_, LayerShape::Layout::ChannelsLast);
}

void Conv2dLayer::init(const LayerWeights& weights, Rng& rng) {
  const double fan_in = static_cast<double>(patch_size_);
  double std = init_scale_ * std::sqrt((init_ == "he" ? 2.0 : 1.0) / fan_in);
  if (init_std_) std = *init_std_;
  if (init_ == "uniform") {
    rng.fill_uniform(weights.value(W_), -std, std);
    if (bias_) rng.fill_uniform(weights.value(b_), -std, std);
    return;
  }
  rng.fill_normal(weights.value(W_), std);
  if (bias_) weights.value(b_).setZero();
}

const Scalar* Conv2dLayer::pad(ConstMatRef in, Mat* padded_buffer) const {
  if (reads_input_directly()) return in.data();
  Mat& padded = *padded_buffer;
  const Index C = in_channels_, H = height_, W = width_, p = pad_, Hp = padded_height_, Wp = padded_width_;
  // Image s is rows [s·Hp·Wp, (s + 1)·Hp·Wp): its top and bottom border rows and each inner row's left and
  // right border set to 0, the inside copied (a channels-first image transposed on the way).
  parallel_over_chunks(in.rows(), [&](Index, Index begin, Index end) {
    for (Index s = begin; s < end; ++s) {
      const Index base = s * Hp * Wp;
      padded.middleRows(base, p * Wp).setZero();
      padded.middleRows(base + (p + H) * Wp, p * Wp).setZero();
      for (Index y = 0; y < H; ++y) {
        const Index row = base + (y + p) * Wp;
        padded.middleRows(row, p).setZero();
        padded.middleRows(row + p + W, p).setZero();
        if (channels_last_) {
          padded.middleRows(row + p, W) = ConstMatMap(in.row(s).data() + y * W * C, W, C);
        } else {
          for (Index x = 0; x < W; ++x) {
            for (Index c = 0; c < C; ++c) padded(row + p + x, c) = in(s, (c * H + y) * W + x);
          }
        }
      }
    }
  });
  return padded.data();
}

void Conv2dLayer::im2col(const Scalar* source, Index images, Mat& patches) const {
  const Index C = in_channels_, k = kernel_, s = stride_, run = k * C, Ho = out_height_, Wo = out_width_;
  const Index Wp = padded_width_, image_values = padded_height_ * padded_width_ * C;
  // Patch (y, x) of an image: for each dy, the k·C values of its padded rows' positions (s·y + dy, s·x … s·x + k − 1),
  // contiguous in the channels-last buffer.
  parallel_over_chunks(images, [&](Index, Index begin, Index end) {
    for (Index i = begin; i < end; ++i) {
      const Scalar* image = source + i * image_values;
      for (Index y = 0; y < Ho; ++y) {
        for (Index x = 0; x < Wo; ++x) {
          Scalar* to = patches.row((i * Ho + y) * Wo + x).data();
          for (Index dy = 0; dy < k; ++dy) {
            const Scalar* from = image + ((s * y + dy) * Wp + s * x) * C;
            // A plain loop: a run is k·C values (6 for 3×3 filters over 2 channels), shorter than a memcpy call is worth.
            for (Index j = 0; j < run; ++j) to[dy * run + j] = from[j];
          }
        }
      }
    }
  });
}

void Conv2dLayer::col2im(const Mat& dpatches, Index images, Mat* dpadded, MatRef din) const {
  const Index C = in_channels_, H = height_, W = width_, p = pad_, k = kernel_, s = stride_, run = k * C;
  const Index Ho = out_height_, Wo = out_width_, Hp = padded_height_, Wp = padded_width_;
  const bool direct = reads_input_directly();
  parallel_over_chunks(images, [&](Index, Index begin, Index end) {
    for (Index i = begin; i < end; ++i) {
      // Each patch's gradient added back where im2col read it: into the input's own row (channels last,
      // no border), else into the padded buffer whose inside is then the input's gradient.
      Scalar* image = direct ? din.row(i).data() : dpadded->row(i * Hp * Wp).data();
      MatMap(image, Hp * Wp, C).setZero();
      for (Index y = 0; y < Ho; ++y) {
        for (Index x = 0; x < Wo; ++x) {
          const Scalar* from = dpatches.row((i * Ho + y) * Wo + x).data();
          for (Index dy = 0; dy < k; ++dy) {
            Scalar* to = image + ((s * y + dy) * Wp + s * x) * C;
            for (Index j = 0; j < run; ++j) to[j] += from[dy * run + j];
          }
        }
      }
      if (direct) continue;
      // The border's gradient belongs to no input.
      for (Index y = 0; y < H; ++y) {
        const Scalar* inside = image + ((y + p) * Wp + p) * C;
        if (channels_last_) {
          MatMap(din.row(i).data() + y * W * C, W, C) = ConstMatMap(inside, W, C);
        } else {
          for (Index x = 0; x < W; ++x) {
            for (Index c = 0; c < C; ++c) din(i, (c * H + y) * W + x) = inside[x * C + c];
          }
        }
      }
    }
  });
}

void Conv2dLayer::forward(const LayerWeights& weights, ConstMatRef in, MatRef out, LayerTape& tape) const {
  const Index n = in.rows(), chunk = std::min(n, chunk_images_), positions = out_height_ * out_width_;
  // Sized for a whole chunk (a smaller last chunk uses their first rows): no allocation while n stays.
  Mat& patches = tape.buffer(kPatches, chunk * positions, patch_size_);
  Mat* padded = reads_input_directly() ? nullptr : &tape.buffer(kPadded, chunk * padded_height_ * padded_width_, in_channels_);
  // The output, n×(H'·W'·C_out), is the (n·H'·W')×C_out convolution, position after position.
  MatMap Y(out.data(), n * positions, out_channels_);
  const ConstMatMap filters = weights(W_);
  for (Index first = 0; first < n; first += chunk) {
    const Index images = std::min(chunk, n - first);
    im2col(pad(in.middleRows(first, images), padded), images, patches);
    parallel_product_rows(Y.middleRows(first * positions, images * positions), patches.topRows(images * positions), filters.transpose());
  }
  if (bias_) Y.rowwise() += weights(b_).row(0);
}

void Conv2dLayer::backward(const LayerPass& pass, ConstMatRef dout, LayerGrads& grads) const {
  const bool weight_grads = grads.trains(W_);
  if (!weight_grads && !pass.want_din) return;
  const Index n = pass.in.rows(), chunk = std::min(n, chunk_images_), positions = out_height_ * out_width_;
  const ConstMatMap G(dout.data(), n * positions, out_channels_);  // d(pre-bias output), (n·H'·W')×C_out
  if (bias_ && grads.trains(b_)) grads(b_).row(0) = G.colwise().sum();
  Mat& patches = pass.tape.buffer(kPatches, chunk * positions, patch_size_);
  const Index padded_rows = chunk * padded_height_ * padded_width_;
  Mat* padded = reads_input_directly() ? nullptr : &pass.tape.buffer(kPadded, padded_rows, in_channels_);
  Mat* dpatches = pass.want_din ? &pass.tape.buffer(kPatchGrad, chunk * positions, patch_size_) : nullptr;
  Mat* dpadded = pass.want_din && !reads_input_directly() ? &pass.tape.buffer(kPaddedGrad, padded_rows, in_channels_) : nullptr;
  // A batch of one chunk: forward() left its patches on the tape (and nothing here overwrites them).
  const bool patches_kept = n <= chunk_images_;
  for (Index first = 0; first < n; first += chunk) {
    const Index images = std::min(chunk, n - first), rows = images * positions;
    const auto Gc = G.middleRows(first * positions, rows);
    if (weight_grads) {
      if (!patches_kept) im2col(pad(pass.in.middleRows(first, images), padded), images, patches);
      // ∇W = Gᵀ·patches (C_out × k²·C_in), the chunks' products added in order.
      if (first == 0) {
        parallel_product_cols(grads(W_), Gc.transpose(), patches.topRows(rows));
      } else {
        parallel_product_cols_add(grads(W_), Gc.transpose(), patches.topRows(rows));
      }
    }
    if (pass.want_din) {
      parallel_product_rows(dpatches->topRows(rows), Gc, pass.weights(W_));  // (n·H'·W')×(k²·C_in)
      auto din = pass.din.middleRows(first, images);
      col2im(*dpatches, images, dpadded, MatRef(din));
    }
  }
}

}  // namespace featurelab::std_pack
