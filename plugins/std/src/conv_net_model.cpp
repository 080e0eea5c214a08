// im2col products for the convolutions; pooling, im2col and its inverse as loops over the batch.
#include "conv_net_model.hpp"

#include <featurelab/error.hpp>

#include <algorithm>
#include <cmath>
#include <string>

namespace featurelab::std_pack {

Schema ConvNetModel::schema() {
  Schema s;
  s.integers("channels", {16, 32}, "output channels of each convolution block, one block per entry").non_empty();
  s.integer("kernel", 5, "k: k×k filters, odd (same padding k/2)").min(1);
  s.choice("pool", "max", {"max", "average"}, "the 2×2 pooling after each block's activation");
  Activation::declare(s);
  s.integer("in_channels", 1, "C: input channels (an input row is C×H×W)").min(1);
  s.integer("height", Automatic{"√(D/C): square images"}, "H: image height; the width is D/(C·H)").min(1);
  s.integer("outputs", Automatic{"1 for two classes (binary, ±1 labels), else one per class"}, "outputs K").min(1);
  s.integer("hidden", 0, "h: a fully connected layer of h units (same activation) between the features and the "
                         "head, hook `hidden`; 0: none").min(0);
  s.real("init_scale", 1.0, "times He's initial std: √(2/fan-in) for the filters, √(1/fan-in) for the head").above(0);
  return s;
}

// 6×6 grey images (36 inputs) of two Gaussian classes; two blocks of 3×3 filters: 6×6 → 3×3 → 1×1.
ContractData ConvNetModel::contract_data() {
  return {{"gaussian-mixture", {{"classes", std::int64_t(2)}, {"dim", std::int64_t(36)}, {"sigma", 0.5}}}, {}, {}, {}};
}

// Smooth (smoothed ReLU, average pooling) so that the finite differences never straddle a kink; the
// unit tests check ReLU and max pooling.
std::map<std::string, Value> ConvNetModel::test_params() {
  return {{"channels", std::vector<std::int64_t>{3, 4}}, {"kernel", std::int64_t(3)},
          {"activation", std::string("smoothed-relu")}, {"pool", std::string("average")}};
}

ConvNetModel::ConvNetModel(const Params& params, Context& context)
    : activation_(params, context),
      in_channels_(params.integer("in_channels")),
      kernel_(params.integer("kernel")),
      max_pool_(params.str("pool") == "max"),
      init_scale_(params.real("init_scale")) {
  const Index dim = context.data.dim;
  if (kernel_ % 2 == 0) throw Error("conv-net: kernel = " + std::to_string(kernel_) + " is even; same padding needs an odd size (3, 5, 7)");
  if (dim <= 0 || dim % in_channels_ != 0) {
    throw Error("conv-net: the data's " + std::to_string(dim) + " inputs are not in_channels = " +
                std::to_string(in_channels_) + " images of equal size");
  }
  const Index pixels = dim / in_channels_;
  if (const auto h = params.integer_or_auto("height")) {
    height_ = *h;
  } else {
    height_ = static_cast<Index>(std::lround(std::sqrt(static_cast<double>(pixels))));
    if (height_ * height_ != pixels) {
      throw Error("conv-net: " + std::to_string(pixels) + " pixels per channel are no square image; set height (the width is " +
                  "D/(in_channels·height))");
    }
  }
  if (pixels % height_ != 0) {
    throw Error("conv-net: height = " + std::to_string(height_) + " does not divide the " + std::to_string(pixels) +
                " pixels per channel");
  }
  width_ = pixels / height_;
  const auto requested = params.integer_or_auto("outputs");
  outputs_ = requested ? *requested : (context.data.classes == 2 ? 1 : std::max(1, context.data.classes));
  Index channels = in_channels_, h = height_, w = width_;
  const auto& widths = params.integers("channels");
  for (std::size_t b = 0; b < widths.size(); ++b) {
    if (widths[b] < 1) throw Error("conv-net: channels[" + std::to_string(b) + "] = " + std::to_string(widths[b]) + " (at least 1)");
    if (h < 2 || w < 2) {
      throw Error("conv-net: block " + std::to_string(b + 1) + " would pool a " + std::to_string(h) + "×" +
                  std::to_string(w) + " map: a " + std::to_string(height_) + "×" + std::to_string(width_) +
                  " image has room for " + std::to_string(b) + " blocks; shorten channels");
    }
    Block block;
    block.in_channels = channels;
    block.out_channels = widths[b];
    block.height = h;
    block.width = w;
    block.pooled_height = h / 2;
    block.pooled_width = w / 2;
    block.patch_size = kernel_ * kernel_ * channels;
    const std::string name = "conv" + std::to_string(b + 1);
    block.filters = declare_block(name + ".W", block.out_channels, kernel_ * kernel_ * channels, true);
    block.bias = declare_block(name + ".b", 1, block.out_channels, true);
    blocks_.push_back(std::move(block));
    channels = widths[b];
    h /= 2;
    w /= 2;
  }
  hidden_ = params.integer("hidden");
  if (hidden_ > 0) {
    hidden_w_ = declare_block("hidden.W", hidden_, feature_size(), true);
    hidden_b_ = declare_block("hidden.b", 1, hidden_, true);
  }
  head_ = declare_block("head.W", outputs_, hidden_ > 0 ? hidden_ : feature_size(), true);
  head_bias_ = declare_block("head.b", 1, outputs_, true);
  allocate_parameters();
}

Index ConvNetModel::feature_size() const {
  const Block& last = blocks_.back();
  return last.pooled_height * last.pooled_width * last.out_channels;
}

void ConvNetModel::init(Rng& rng) {
  for (Block& b : blocks_) {
    rng.fill_normal(block(b.filters), init_scale_ * std::sqrt(2.0 / static_cast<double>(kernel_ * kernel_ * b.in_channels)));
    block(b.bias).setZero();
  }
  if (hidden_ > 0) {
    rng.fill_normal(block(hidden_w_), init_scale_ * std::sqrt(2.0 / static_cast<double>(feature_size())));
    block(hidden_b_).setZero();
  }
  const Index head_in = hidden_ > 0 ? hidden_ : feature_size();
  rng.fill_normal(block(head_), init_scale_ * std::sqrt(1.0 / static_cast<double>(head_in)));
  block(head_bias_).setZero();
}

void ConvNetModel::im2col(std::size_t b, ConstMatRef X) {
  Block& B = blocks_[b];
  const Index H = B.height, W = B.width, C = B.in_channels, k = kernel_, pad = k / 2;
  const Index Hp = H + 2 * pad, Wp = W + 2 * pad;
  const Index n = b == 0 ? X.rows() : blocks_[b - 1].images;
  B.images = n;
  // The input inside a zero border, (n·Hp·Wp)×C: every row of an image's top and bottom border and
  // the left and right border of every other row are set to 0, the rest copied.
  MatMap padded = B.padded.view(n * Hp * Wp, C);
  const ConstMatMap previous = b == 0 ? ConstMatMap(nullptr, 0, 0)
                                      : blocks_[b - 1].pooled.read(blocks_[b - 1].pooled_positions(), C);
  for (Index s = 0; s < n; ++s) {
    const Index base = s * Hp * Wp;
    padded.middleRows(base, pad * Wp).setZero();
    padded.middleRows(base + (pad + H) * Wp, pad * Wp).setZero();
    for (Index y = 0; y < H; ++y) {
      const Index row = base + (y + pad) * Wp;
      padded.middleRows(row, pad).setZero();
      padded.middleRows(row + pad + W, pad).setZero();
      if (b > 0) {
        padded.middleRows(row + pad, W) = previous.middleRows((s * H + y) * W, W);
      } else {
        for (Index x = 0; x < W; ++x) {
          for (Index c = 0; c < C; ++c) padded(row + pad + x, c) = X(s, (c * H + y) * W + x);
        }
      }
    }
  }
  // Patch (y, x): for each dy the k·C floats of padded rows (y + dy, x ... x + k − 1).
  MatMap patches = B.patches.view(B.positions(), B.patch_size);
  const Index run = k * C;
  for (Index s = 0; s < n; ++s) {
    for (Index y = 0; y < H; ++y) {
      for (Index x = 0; x < W; ++x) {
        Scalar* out = patches.row((s * H + y) * W + x).data();
        for (Index dy = 0; dy < k; ++dy) {
          const Scalar* in = padded.row(s * Hp * Wp + (y + dy) * Wp + x).data();
          // A plain loop, not std::copy: a run is k·C floats (10 to 40 here), shorter than a memmove call is worth.
          Scalar* to = out + dy * run;
          for (Index j = 0; j < run; ++j) to[j] = in[j];
        }
      }
    }
  }
}

void ConvNetModel::col2im(std::size_t b, ConstMatRef dpatches, MatRef dinput, bool image_layout) {
  Block& B = blocks_[b];
  const Index H = B.height, W = B.width, C = B.in_channels, k = kernel_, pad = k / 2;
  const Index Hp = H + 2 * pad, Wp = W + 2 * pad, n = B.images, run = k * C;
  MatMap dpadded = B.dpadded.view(n * Hp * Wp, C);
  dpadded.setZero();
  for (Index s = 0; s < n; ++s) {
    for (Index y = 0; y < H; ++y) {
      for (Index x = 0; x < W; ++x) {
        const Scalar* in = dpatches.row((s * H + y) * W + x).data();
        for (Index dy = 0; dy < k; ++dy) {
          Scalar* out = dpadded.row(s * Hp * Wp + (y + dy) * Wp + x).data();
          for (Index j = 0; j < run; ++j) out[j] += in[dy * run + j];
        }
      }
    }
  }
  // The interior is the input's gradient; the border's belongs to no input.
  for (Index s = 0; s < n; ++s) {
    for (Index y = 0; y < H; ++y) {
      const Index row = s * Hp * Wp + (y + pad) * Wp + pad;
      if (!image_layout) {
        dinput.middleRows((s * H + y) * W, W) = dpadded.middleRows(row, W);
      } else {
        for (Index x = 0; x < W; ++x) {
          for (Index c = 0; c < C; ++c) dinput(s, (c * H + y) * W + x) = dpadded(row + x, c);
        }
      }
    }
  }
}

void ConvNetModel::forward_features(ConstMatRef X) {
  if (X.cols() != in_channels_ * height_ * width_) {
    throw Error(described() + " reads " + std::to_string(in_channels_ * height_ * width_) + " inputs, got " +
                std::to_string(X.cols()));
  }
  for (std::size_t b = 0; b < blocks_.size(); ++b) {
    Block& B = blocks_[b];
    im2col(b, X);
    const Index n = B.images;
    MatMap pre = B.pre.view(B.positions(), B.out_channels);
    pre.noalias() = B.patches.read(B.positions(), B.patch_size) * block(B.filters).transpose();  // (n·H·W)×out
    pre.rowwise() += block(B.bias).row(0);
    MatMap act = B.act.view(B.positions(), B.out_channels), slope = B.slope.view(B.positions(), B.out_channels);
    activation_.apply(pre, act, slope);
    const Index H = B.height, W = B.width, Ho = B.pooled_height, Wo = B.pooled_width, C = B.out_channels;
    MatMap pooled = B.pooled.view(B.pooled_positions(), C);
    // Row-wise over the channels: each pooled row is the maximum (or mean) of its window's four rows.
    for (Index s = 0; s < n; ++s) {
      for (Index yo = 0; yo < Ho; ++yo) {
        for (Index xo = 0; xo < Wo; ++xo) {
          const Index r00 = (s * H + 2 * yo) * W + 2 * xo;
          auto out = pooled.row((s * Ho + yo) * Wo + xo);
          if (max_pool_) {
            out = act.row(r00).cwiseMax(act.row(r00 + 1)).cwiseMax(act.row(r00 + W).cwiseMax(act.row(r00 + W + 1)));
          } else {
            out = (act.row(r00) + act.row(r00 + 1) + act.row(r00 + W) + act.row(r00 + W + 1)) / Scalar(4);
          }
        }
      }
    }
  }
  const Block& last = blocks_.back();
  features_ = ConstMatMap(last.pooled.storage.data(), last.images, feature_size());
}

void ConvNetModel::forward(ConstMatRef X, MatRef out) {
  const Index n = X.rows();
  for (Index begin = 0; begin < n; begin += kChunkRows) {
    const Index rows = std::min(kChunkRows, n - begin);
    forward_features(X.middleRows(begin, rows));
    forward_hidden();
    out.middleRows(begin, rows).noalias() = top() * block(head_).transpose();
    out.middleRows(begin, rows).rowwise() += block(head_bias_).row(0);
  }
  // One chunk: its caches are this batch's, for backward() and input_gradient().
  cached_rows_ = n <= kChunkRows ? n : 0;
  cached_input_ = X.data();
}

void ConvNetModel::forward_hidden() {
  if (hidden_ == 0) return;
  hidden_pre_.noalias() = features_ * block(hidden_w_).transpose();  // rows×h
  hidden_pre_.rowwise() += block(hidden_b_).row(0);
  hidden_act_.resize(hidden_pre_.rows(), hidden_);
  hidden_slope_.resize(hidden_pre_.rows(), hidden_);
  activation_.apply(hidden_pre_, hidden_act_, hidden_slope_);
}

MatMap ConvNetModel::backward_hidden(ConstMatRef dtop, VecRef grad, bool accumulate) {
  MatMap dfeatures = dfeatures_.view(dtop.rows(), feature_size());
  dhidden_ = dtop.cwiseProduct(hidden_slope_);  // d(pre-activation), rows×h
  if (grad.size() > 0) {
    if (accumulate) {
      grad_block(grad, hidden_w_).noalias() += dhidden_.transpose() * features_;
      grad_block(grad, hidden_b_) += dhidden_.colwise().sum();
    } else {
      grad_block(grad, hidden_w_).noalias() = dhidden_.transpose() * features_;
      grad_block(grad, hidden_b_) = dhidden_.colwise().sum();
    }
  }
  dfeatures.noalias() = dhidden_ * block(hidden_w_);
  return dfeatures;
}

void ConvNetModel::backward_blocks(ConstMatRef dfeatures, VecRef grad, bool accumulate, MatRef* dX) {
  for (std::size_t b = blocks_.size(); b-- > 0;) {
    Block& B = blocks_[b];
    const Index n = B.images;
    const Index H = B.height, W = B.width, Ho = B.pooled_height, Wo = B.pooled_width, C = B.out_channels;
    // d(pooled) of this block: the features' gradient for the last block, else what the next one sent back.
    const Scalar* dpooled = b + 1 == blocks_.size() ? dfeatures.data() : B.dpooled.storage.data();
    const ConstMatMap slope = B.slope.read(B.positions(), C);
    const ConstMatMap act = B.act.read(B.positions(), C), pooled = B.pooled.read(B.pooled_positions(), C);
    MatMap dpre = B.dpre.view(B.positions(), C);
    dpre.setZero();
    for (Index i = 0; i < n * Ho * Wo; ++i) {
      const Index s = i / (Ho * Wo), yo = (i / Wo) % Ho, xo = i % Wo;
      const Index r00 = (s * H + 2 * yo) * W + 2 * xo;
      const Index rows[4] = {r00, r00 + 1, r00 + W, r00 + W + 1};
      for (Index c = 0; c < C; ++c) {
        const Scalar g = dpooled[i * C + c];
        if (max_pool_) {
          // The maximum's first row in the window (forward took the maximum of the same four values).
          const Scalar top = pooled(i, c);
          int q = 0;
          while (q < 3 && act(rows[q], c) != top) ++q;
          dpre(rows[q], c) += g * slope(rows[q], c);
        } else {
          for (const Index r : rows) dpre(r, c) += g / Scalar(4) * slope(r, c);
        }
      }
    }
    const ConstMatMap patches = B.patches.read(B.positions(), B.patch_size);
    if (grad.size() > 0) {
      if (accumulate) {
        grad_block(grad, B.filters).noalias() += dpre.transpose() * patches;
        grad_block(grad, B.bias) += dpre.colwise().sum();
      } else {
        grad_block(grad, B.filters).noalias() = dpre.transpose() * patches;
        grad_block(grad, B.bias) = dpre.colwise().sum();
      }
    }
    if (b == 0 && !dX) break;
    MatMap dpatches = B.dpatches.view(B.positions(), B.patch_size);
    dpatches.noalias() = dpre * block(B.filters);  // (n·H·W)×(k²·in)
    if (b > 0) {
      Block& previous = blocks_[b - 1];
      MatMap dprevious = previous.dpooled.view(previous.pooled_positions(), previous.out_channels);
      col2im(b, dpatches, dprevious, false);
    } else {
      col2im(0, dpatches, *dX, true);
    }
  }
}

// One chunk of rows at a time: from the caches when forward() left them for this batch, else after
// recomputing the chunk's forward pass; the chunks' parameter gradients are added in order.
void ConvNetModel::backward(ConstMatRef X, ConstMatRef dout, VecRef grad) {
  const Index n = X.rows();
  const bool cached = cached_rows_ == n && cached_input_ == X.data();
  for (Index begin = 0; begin < n; begin += kChunkRows) {
    const Index rows = std::min(kChunkRows, n - begin);
    if (!cached) {
      forward_features(X.middleRows(begin, rows));
      forward_hidden();
    }
    const auto d = dout.middleRows(begin, rows);
    if (begin == 0) {
      grad_block(grad, head_).noalias() = d.transpose() * top();
      grad_block(grad, head_bias_) = d.colwise().sum();
    } else {
      grad_block(grad, head_).noalias() += d.transpose() * top();
      grad_block(grad, head_bias_) += d.colwise().sum();
    }
    if (hidden_ == 0) {
      MatMap dfeatures = dfeatures_.view(rows, feature_size());
      dfeatures.noalias() = d * block(head_);
      backward_blocks(dfeatures, grad, begin > 0, nullptr);
      continue;
    }
    dtop_.noalias() = d * block(head_);
    const MatMap dfeatures = backward_hidden(dtop_, grad, begin > 0);
    backward_blocks(dfeatures, grad, begin > 0, nullptr);
  }
  cached_rows_ = n <= kChunkRows ? n : 0;
}

void ConvNetModel::input_gradient(ConstMatRef X, ConstMatRef dout, MatRef dX) {
  const Index n = X.rows();
  const bool cached = cached_rows_ == n && cached_input_ == X.data();
  Vec none;
  for (Index begin = 0; begin < n; begin += kChunkRows) {
    const Index rows = std::min(kChunkRows, n - begin);
    if (!cached) {
      forward_features(X.middleRows(begin, rows));
      forward_hidden();
    }
    MatMap dfeatures = dfeatures_.view(rows, feature_size());
    if (hidden_ == 0) {
      dfeatures.noalias() = dout.middleRows(begin, rows) * block(head_);
    } else {
      dtop_.noalias() = dout.middleRows(begin, rows) * block(head_);
      dfeatures = backward_hidden(dtop_, none, false);
    }
    auto chunk = dX.middleRows(begin, rows);
    MatRef target(chunk);
    backward_blocks(dfeatures, none, false, &target);
  }
  cached_rows_ = n <= kChunkRows ? n : 0;
}

std::vector<HookSpec> ConvNetModel::hook_points() const {
  std::vector<HookSpec> hooks{{"features", "n×F", "the flattened pooled output of the last block, the head's input "
                                                  "(penultimate layer) without a hidden layer; hook_backward supported"}};
  if (hidden_ > 0) hooks.push_back({"hidden", "n×h", "the fully connected hidden layer after its activation, the "
                                                     "head's input; hook_backward supported"});
  return hooks;
}

void ConvNetModel::hook(const std::string& name, ConstMatRef X, Mat& out) {
  const bool hidden = hidden_ > 0 && name == "hidden";
  if (name != "features" && !hidden) Model::hook(name, X, out);
  out.resize(X.rows(), hidden ? hidden_ : feature_size());
  for (Index begin = 0; begin < X.rows(); begin += kChunkRows) {
    const Index rows = std::min(kChunkRows, X.rows() - begin);
    forward_features(X.middleRows(begin, rows));
    if (hidden) forward_hidden();
    out.middleRows(begin, rows) = hidden ? hidden_act_ : features_;
  }
  cached_rows_ = 0;
}

void ConvNetModel::hook_backward(const std::string& name, ConstMatRef X, ConstMatRef dhook, VecRef grad) {
  const bool hidden = hidden_ > 0 && name == "hidden";
  if (name != "features" && !hidden) Model::hook_backward(name, X, dhook, grad);
  for (Index begin = 0; begin < X.rows(); begin += kChunkRows) {
    const Index rows = std::min(kChunkRows, X.rows() - begin);
    forward_features(X.middleRows(begin, rows));
    if (!hidden) {
      backward_blocks(dhook.middleRows(begin, rows), grad, true, nullptr);
      continue;
    }
    forward_hidden();
    const MatMap dfeatures = backward_hidden(dhook.middleRows(begin, rows), grad, true);
    backward_blocks(dfeatures, grad, true, nullptr);
  }
  cached_rows_ = 0;
}

}  // namespace featurelab::std_pack
