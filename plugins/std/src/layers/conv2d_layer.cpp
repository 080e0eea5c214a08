// The convolution image by image with the kernels of conv2d_kernels.hpp: one correlation forward, ∇W and a
// second correlation (for the input's gradient) backward.
#include "conv2d_layer.hpp"

#include <featurelab/error.hpp>
#include <featurelab/threads.hpp>

#include <algorithm>
#include <cmath>

namespace featurelab::std_pack {

namespace {

using conv2d_kernels::strip_width;

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
  forward_ = {in_channels_, kernel_, stride_, padded_width_ * in_channels_, out_height_, out_width_};
  // The output's gradient spread out: G(y, x) at (s·y + k − 1, s·x + k − 1) of a zero (H_p + k − 1)×(W_p + k − 1)
  // map; the input's gradient at (Y, X) (padded coordinates) is Σ_{ey, ex} spread(Y + ey, X + ex) · W turned over.
  spread_height_ = padded_height_ + kernel_ - 1;
  spread_width_ = padded_width_ + kernel_ - 1;
  backward_ = {out_channels_, kernel_, 1, spread_width_ * out_channels_, height_, width_};
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

namespace {

// Row y of C channel planes (planes `plane` values apart) interleaved into channels-last positions: with C a
// constant (the data's 1 to 4 channels) the compiler turns this into vector shuffles; scalar stores of a runtime
// C were a tenth of conv-net's step (bench/README.md, round 20).
template <Index C>
void interleave_row(const Scalar* from, Index plane, Index width, Scalar* to) {
  for (Index x = 0; x < width; ++x) {
    for (Index c = 0; c < C; ++c) to[x * C + c] = from[c * plane + x];
  }
}

void interleave_row(const Scalar* from, Index plane, Index width, Index channels, Scalar* to) {
  switch (channels) {
    case 1: std::copy_n(from, width, to); return;
    case 2: interleave_row<2>(from, plane, width, to); return;
    case 3: interleave_row<3>(from, plane, width, to); return;
    case 4: interleave_row<4>(from, plane, width, to); return;
    default:
      for (Index c = 0; c < channels; ++c) {
        for (Index x = 0; x < width; ++x) to[x * channels + c] = from[c * plane + x];
      }
  }
}

}  // namespace

const Scalar* Conv2dLayer::padded_image(const Scalar* row, Mat* padded, Index slot) const {
  if (reads_input_directly()) return row;
  const Index C = in_channels_, H = height_, W = width_, p = pad_, Wp = padded_width_;
  // The image's top and bottom border rows and each inner row's left and right border set to 0, the inside
  // copied (a channels-first image interleaved on the way).
  Scalar* image = padded->data() + slot * padded_positions() * C;
  std::fill_n(image, p * Wp * C, Scalar(0));
  std::fill_n(image + (p + H) * Wp * C, p * Wp * C, Scalar(0));
  for (Index y = 0; y < H; ++y) {
    Scalar* line = image + (y + p) * Wp * C;
    std::fill_n(line, p * C, Scalar(0));
    std::fill_n(line + (p + W) * C, p * C, Scalar(0));
    if (channels_last_) {
      std::copy_n(row + y * W * C, W * C, line + p * C);
    } else {
      interleave_row(row + y * W, H * W, W, C, line + p * C);
    }
  }
  return image;
}

void Conv2dLayer::forward(const LayerWeights& weights, ConstMatRef in, MatRef out, LayerTape& tape) const {
  convolve(
      weights, in, tape, [&](Index i, Index) { return out.row(i).data(); }, [](Index, Index) {});
}

void Conv2dLayer::convolve(const LayerWeights& weights, ConstMatRef in, LayerTape& tape,
                           const std::function<Scalar*(Index image, Index chunk)>& output,
                           const std::function<void(Index image, Index chunk)>& finished) const {
  const Index n = in.rows(), cols = out_channels_, width = strip_width(cols);
  // T = Wᵀ in whole strips (k²·C_in × width), the bias one strip row.
  Mat& taps = tape.buffer(kTaps, patch_size_, width);
  taps.rightCols(width - cols).setZero();
  taps.leftCols(cols) = weights(W_).transpose();
  Mat& bias = tape.buffer(kBias, 1, width);
  bias.setZero();
  if (bias_) bias.leftCols(cols) = weights(b_);
  Mat* padded = reads_input_directly() ? nullptr : &tape.buffer(kPadded, parallel_chunks * padded_positions(), in_channels_);
  // 8 output channels: two positions a register (conv2d_kernels::correlate_paired), the same bits.
  const bool paired = conv2d_kernels::kPairedPositions && cols == 8;
  const Index image_values = padded_positions() * in_channels_;
  Mat* paired_taps = paired ? &tape.buffer(kPairedTaps, patch_size_, 16) : nullptr;
  Mat* paired_bias = paired ? &tape.buffer(kPairedBias, 1, 16) : nullptr;
  Mat* paired_up = paired ? &tape.buffer(kPairedUp, parallel_chunks, 2 * image_values) : nullptr;
  if (paired) {
    conv2d_kernels::twice(taps.data(), patch_size_, paired_taps->data());
    conv2d_kernels::twice(bias.data(), 1, paired_bias->data());
  }
  parallel_over_chunks(n, [&](Index chunk, Index begin, Index end) {
    for (Index i = begin; i < end; ++i) {
      const Scalar* image = padded_image(in.row(i).data(), padded, chunk);
      if (paired) {
        Scalar* dup = paired_up->row(chunk).data();
        conv2d_kernels::pair_up(image, image_values, forward_.step(), dup);
        conv2d_kernels::correlate_paired(image, dup, forward_, taps.data(), paired_taps->data(), bias.data(), paired_bias->data(),
                                         output(i, chunk));
      } else {
        conv2d_kernels::correlate(image, forward_, taps.data(), cols, bias.data(), output(i, chunk), cols);
      }
      finished(i, chunk);
    }
  });
}

void Conv2dLayer::backward(const LayerPass& pass, ConstMatRef dout, LayerGrads& grads) const {
  backward_from(pass, grads, [&](Index i, Index) { return dout.row(i).data(); });
}

void Conv2dLayer::backward_from(const LayerPass& pass, LayerGrads& grads,
                                const std::function<const Scalar*(Index image, Index chunk)>& gradient) const {
  const bool weight_grads = grads.trains(W_), bias_grads = bias_ && grads.trains(b_);
  if (!weight_grads && !bias_grads && !pass.want_din) return;
  const Index n = pass.in.rows(), positions = out_height_ * out_width_, cols = out_channels_, width = strip_width(cols);
  // ∇Wᵀ and ∇b of each chunk's images in its own rows (summed in registers), then the chunks added in order.
  Mat* partial = weight_grads ? &pass.tape.buffer(kTapGrads, parallel_chunks * patch_size_, width) : nullptr;
  Mat* sums = bias_grads ? &pass.tape.buffer(kBiasGrads, parallel_chunks, width) : nullptr;
  Mat* padded = !weight_grads || reads_input_directly() ? nullptr : &pass.tape.buffer(kPadded, parallel_chunks * padded_positions(), in_channels_);
  // 8 output channels: ∇W two taps a register (conv2d_kernels::add_tap_gradients_paired), the same bits.
  Mat* paired_grads = weight_grads && conv2d_kernels::kPairedPositions && cols == 8
                          ? &pass.tape.buffer(kPairedGrads, parallel_chunks, 16 * positions)
                          : nullptr;
  // G in whole strips (zeros beyond the channels) unless its rows are whole strips already.
  Mat* strips = (weight_grads || bias_grads) && width != cols ? &pass.tape.buffer(kGradStrips, parallel_chunks * positions, width) : nullptr;
  // The input's gradient: the filters turned over, as its correlation reads them: row (ey·k + ex)·C_out + o,
  // column c = W(o, ((k − 1 − ey)·k + (k − 1 − ex))·C_in + c), in whole strips of C_in; G spread out per chunk.
  const Index k = kernel_, C = in_channels_, in_width = strip_width(C);
  const Index spread_positions = spread_height_ * spread_width_, pixels = height_ * width_;
  Mat* turned = pass.want_din ? &pass.tape.buffer(kTurnedTaps, k * k * cols, in_width) : nullptr;
  Mat* spread = pass.want_din ? &pass.tape.buffer(kSpread, parallel_chunks * spread_positions, cols) : nullptr;
  Mat* channels_first = pass.want_din && !channels_last_ ? &pass.tape.buffer(kInputGrad, parallel_chunks * pixels, C) : nullptr;
  // C_in = 8: the input's gradient two positions a register (conv2d_kernels::correlate_paired), the same bits.
  const bool paired = turned && conv2d_kernels::kPairedPositions && C == 8;
  Mat* paired_turned = paired ? &pass.tape.buffer(kPairedTurnedTaps, k * k * cols, 16) : nullptr;
  Mat* paired_up = paired ? &pass.tape.buffer(kPairedSpread, parallel_chunks, 2 * spread_positions * cols) : nullptr;
  if (turned) {
    turned->setZero();
    const ConstMatMap W = pass.weights(W_);
    for (Index ey = 0; ey < k; ++ey) {
      for (Index ex = 0; ex < k; ++ex) {
        const Index tap = ((k - 1 - ey) * k + (k - 1 - ex)) * C;
        turned->block((ey * k + ex) * cols, 0, cols, C) = W.middleCols(tap, C);
      }
    }
    if (paired) conv2d_kernels::twice(turned->data(), k * k * cols, paired_turned->data());
  }
  parallel_over_chunks(n, [&](Index chunk, Index begin, Index end) {
    if (partial) partial->middleRows(chunk * patch_size_, patch_size_).setZero();
    if (sums) sums->row(chunk).setZero();
    if (spread) spread->middleRows(chunk * spread_positions, spread_positions).setZero();
    for (Index i = begin; i < end; ++i) {
      const Scalar* image_gradient = gradient(i, chunk);
      if (weight_grads || bias_grads) {
        const Scalar* G = image_gradient;
        if (strips) {
          auto rows = strips->middleRows(chunk * positions, positions);
          rows.rightCols(width - cols).setZero();
          rows.leftCols(cols) = ConstMatMap(G, positions, cols);
          G = rows.data();
        }
        // ∇b inside ∇W's first tile when both train (the same bits as its own pass).
        Scalar* column_sums = sums ? sums->row(chunk).data() : nullptr;
        if (!partial && column_sums) conv2d_kernels::add_column_sums(G, positions, cols, column_sums);
        if (partial) {
          const Scalar* image = padded_image(pass.in.row(i).data(), padded, chunk);
          Scalar* dT = partial->middleRows(chunk * patch_size_, patch_size_).data();
          if (paired_grads) {
            Scalar* G2 = paired_grads->row(chunk).data();
            conv2d_kernels::twice(G, positions, G2);
            conv2d_kernels::add_tap_gradients_paired(image, forward_, G, G2, dT, column_sums);
          } else {
            conv2d_kernels::add_tap_gradients(image, forward_, G, cols, dT, column_sums);
          }
        }
      }
      if (!spread) continue;
      auto map = spread->middleRows(chunk * spread_positions, spread_positions);
      for (Index y = 0; y < out_height_; ++y) {
        const Scalar* from = image_gradient + y * out_width_ * cols;
        Scalar* to = map.data() + ((stride_ * y + k - 1) * spread_width_ + k - 1) * cols;
        if (stride_ == 1) {
          std::copy_n(from, out_width_ * cols, to);  // a row's positions lie side by side in both
          continue;
        }
        for (Index x = 0; x < out_width_; ++x) std::copy_n(from + x * cols, cols, to + stride_ * x * cols);
      }
      // Input position (Y, X) is padded position (Y + p, X + p): the correlation starts p rows and columns in.
      const Index origin_at = (pad_ * spread_width_ + pad_) * cols;
      const Scalar* origin = map.data() + origin_at;
      Scalar* din = pass.din.row(i).data();
      Scalar* to = channels_first ? channels_first->middleRows(chunk * pixels, pixels).data() : din;
      if (paired) {
        Scalar* dup = paired_up->row(chunk).data();
        conv2d_kernels::pair_up(map.data(), spread_positions * cols, backward_.step(), dup);
        conv2d_kernels::correlate_paired(origin, dup + 2 * origin_at, backward_, turned->data(), paired_turned->data(), nullptr,
                                         nullptr, to);
      } else {
        conv2d_kernels::correlate(origin, backward_, turned->data(), C, nullptr, to, C);
      }
      if (channels_first) MatMap(din, C, pixels) = channels_first->middleRows(chunk * pixels, pixels).transpose();
    }
  });
  if (partial) {
    auto dW = grads(W_);
    dW = partial->topRows(patch_size_).leftCols(cols).transpose();
    for (Index chunk = 1; chunk < parallel_chunks; ++chunk) dW += partial->middleRows(chunk * patch_size_, patch_size_).leftCols(cols).transpose();
  }
  if (sums) {
    auto db = grads(b_);
    db = sums->row(0).leftCols(cols);
    for (Index chunk = 1; chunk < parallel_chunks; ++chunk) db += sums->row(chunk).leftCols(cols);
  }
}

}  // namespace featurelab::std_pack
