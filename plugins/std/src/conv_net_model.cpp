// im2col products for the convolutions; pooling, im2col and its inverse as loops over the batch.
#include "conv_net_model.hpp"

#include <featurelab/error.hpp>

#include <cmath>
#include <string>

namespace featurelab::std_pack {

Schema ConvNetModel::schema() {
  Schema s;
  s.integers("channels", {16, 32}, "output channels of each convolution block, one block per entry").non_empty();
  s.integer("kernel", 5, "k: k×k filters, odd (same padding k/2)").min(1);
  s.choice("pool", "max", {"max", "average"}, "the 2×2 pooling after each block's ReLU");
  s.integer("in_channels", 1, "C: input channels (an input row is C×H×W)").min(1);
  s.integer("height", Automatic{"√(D/C): square images"}, "H: image height; the width is D/(C·H)").min(1);
  s.integer("outputs", Automatic{"1 for two classes (binary, ±1 labels), else one per class"}, "outputs K").min(1);
  s.real("init_scale", 1.0, "times He's initial std: √(2/fan-in) for the filters, √(1/fan-in) for the head").above(0);
  return s;
}

// 6×6 grey images (36 inputs) of two Gaussian classes; two blocks of 3×3 filters: 6×6 → 3×3 → 1×1.
ContractData ConvNetModel::contract_data() {
  return {{"gaussian-mixture", {{"classes", std::int64_t(2)}, {"dim", std::int64_t(36)}, {"sigma", 0.5}}}, {}, {}, {}};
}

std::map<std::string, Value> ConvNetModel::test_params() {
  return {{"channels", std::vector<std::int64_t>{3, 4}}, {"kernel", std::int64_t(3)}};
}

ConvNetModel::ConvNetModel(const Params& params, Context& context)
    : in_channels_(params.integer("in_channels")),
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
    const std::string name = "conv" + std::to_string(b + 1);
    block.filters = declare_block(name + ".W", block.out_channels, kernel_ * kernel_ * channels, true);
    block.bias = declare_block(name + ".b", 1, block.out_channels, true);
    blocks_.push_back(std::move(block));
    channels = widths[b];
    h /= 2;
    w /= 2;
  }
  head_ = declare_block("head.W", outputs_, feature_size(), true);
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
  rng.fill_normal(block(head_), init_scale_ * std::sqrt(1.0 / static_cast<double>(feature_size())));
  block(head_bias_).setZero();
}

void ConvNetModel::im2col(std::size_t b, ConstMatRef X) {
  Block& B = blocks_[b];
  const Index H = B.height, W = B.width, C = B.in_channels, k = kernel_, pad = k / 2;
  const Index n = b == 0 ? X.rows() : blocks_[b - 1].pooled.rows() / (H * W);
  const Mat* previous = b == 0 ? nullptr : &blocks_[b - 1].pooled;
  B.patches.resize(n * H * W, k * k * C);
  for (Index s = 0; s < n; ++s) {
    for (Index y = 0; y < H; ++y) {
      for (Index x = 0; x < W; ++x) {
        Scalar* row = B.patches.row((s * H + y) * W + x).data();
        for (Index c = 0; c < C; ++c) {
          for (Index dy = 0; dy < k; ++dy) {
            const Index yy = y + dy - pad;
            for (Index dx = 0; dx < k; ++dx) {
              const Index xx = x + dx - pad;
              Scalar v = 0;
              if (yy >= 0 && yy < H && xx >= 0 && xx < W) {
                v = previous ? (*previous)((s * H + yy) * W + xx, c) : X(s, (c * H + yy) * W + xx);
              }
              row[(c * k + dy) * k + dx] = v;
            }
          }
        }
      }
    }
  }
}

void ConvNetModel::col2im(std::size_t b, const Mat& dpatches, MatRef dinput, bool image_layout) const {
  const Block& B = blocks_[b];
  const Index H = B.height, W = B.width, C = B.in_channels, k = kernel_, pad = k / 2;
  const Index n = dpatches.rows() / (H * W);
  for (Index s = 0; s < n; ++s) {
    for (Index y = 0; y < H; ++y) {
      for (Index x = 0; x < W; ++x) {
        const Scalar* row = dpatches.row((s * H + y) * W + x).data();
        for (Index c = 0; c < C; ++c) {
          for (Index dy = 0; dy < k; ++dy) {
            const Index yy = y + dy - pad;
            if (yy < 0 || yy >= H) continue;
            for (Index dx = 0; dx < k; ++dx) {
              const Index xx = x + dx - pad;
              if (xx < 0 || xx >= W) continue;
              const Scalar g = row[(c * k + dy) * k + dx];
              if (image_layout) {
                dinput(s, (c * H + yy) * W + xx) += g;
              } else {
                dinput((s * H + yy) * W + xx, c) += g;
              }
            }
          }
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
  const Index n = X.rows();
  for (std::size_t b = 0; b < blocks_.size(); ++b) {
    Block& B = blocks_[b];
    im2col(b, X);
    B.pre.noalias() = B.patches * block(B.filters).transpose();  // (n·H·W)×out
    B.pre.rowwise() += block(B.bias).row(0);
    const Index H = B.height, W = B.width, Ho = B.pooled_height, Wo = B.pooled_width, C = B.out_channels;
    B.pooled.resize(n * Ho * Wo, C);
    if (max_pool_) B.winner.resize(static_cast<std::size_t>(n * Ho * Wo * C));
    for (Index s = 0; s < n; ++s) {
      for (Index yo = 0; yo < Ho; ++yo) {
        for (Index xo = 0; xo < Wo; ++xo) {
          const Index out_row = (s * Ho + yo) * Wo + xo;
          const Index r00 = (s * H + 2 * yo) * W + 2 * xo;
          const Index rows[4] = {r00, r00 + 1, r00 + W, r00 + W + 1};
          for (Index c = 0; c < C; ++c) {
            if (max_pool_) {
              // max of ReLU = ReLU of max; the first of equal values wins
              Index best = rows[0];
              for (int q = 1; q < 4; ++q) {
                if (B.pre(rows[q], c) > B.pre(best, c)) best = rows[q];
              }
              B.pooled(out_row, c) = std::max(B.pre(best, c), Scalar(0));
              B.winner[static_cast<std::size_t>(out_row * C + c)] = best;
            } else {
              Scalar sum = 0;
              for (int q = 0; q < 4; ++q) sum += std::max(B.pre(rows[q], c), Scalar(0));
              B.pooled(out_row, c) = sum / Scalar(4);
            }
          }
        }
      }
    }
  }
  const Block& last = blocks_.back();
  features_ = Eigen::Map<const Mat>(last.pooled.data(), n, feature_size());
}

void ConvNetModel::forward(ConstMatRef X, MatRef out) {
  forward_features(X);
  out.noalias() = features_ * block(head_).transpose();
  out.rowwise() += block(head_bias_).row(0);
}

void ConvNetModel::backward_blocks(ConstMatRef dfeatures, VecRef grad, bool accumulate, MatRef* dX) {
  const Index n = dfeatures.rows();
  for (std::size_t b = blocks_.size(); b-- > 0;) {
    Block& B = blocks_[b];
    const Index H = B.height, W = B.width, Ho = B.pooled_height, Wo = B.pooled_width, C = B.out_channels;
    // d(pooled) of this block: the features' gradient for the last block, else what the next one sent back.
    const Scalar* dpooled = b + 1 == blocks_.size() ? dfeatures.data() : B.dpooled.data();
    B.dpre.setZero(n * H * W, C);
    for (Index i = 0; i < n * Ho * Wo; ++i) {
      const Index s = i / (Ho * Wo), yo = (i / Wo) % Ho, xo = i % Wo;
      const Index r00 = (s * H + 2 * yo) * W + 2 * xo;
      for (Index c = 0; c < C; ++c) {
        const Scalar g = dpooled[i * C + c];
        if (max_pool_) {
          const Index r = B.winner[static_cast<std::size_t>(i * C + c)];
          if (B.pre(r, c) > 0) B.dpre(r, c) += g;
        } else {
          for (const Index r : {r00, r00 + 1, r00 + W, r00 + W + 1}) {
            if (B.pre(r, c) > 0) B.dpre(r, c) += g / Scalar(4);
          }
        }
      }
    }
    if (grad.size() > 0) {
      if (accumulate) {
        grad_block(grad, B.filters).noalias() += B.dpre.transpose() * B.patches;
        grad_block(grad, B.bias) += B.dpre.colwise().sum();
      } else {
        grad_block(grad, B.filters).noalias() = B.dpre.transpose() * B.patches;
        grad_block(grad, B.bias) = B.dpre.colwise().sum();
      }
    }
    if (b == 0 && !dX) break;
    B.dpatches.noalias() = B.dpre * block(B.filters);  // (n·H·W)×(k²·in)
    if (b > 0) {
      Block& previous = blocks_[b - 1];
      previous.dpooled.setZero(previous.pooled.rows(), previous.pooled.cols());
      col2im(b, B.dpatches, previous.dpooled, false);
    } else {
      dX->setZero();
      col2im(0, B.dpatches, *dX, true);
    }
  }
}

void ConvNetModel::backward(ConstMatRef, ConstMatRef dout, VecRef grad) {
  grad_block(grad, head_).noalias() = dout.transpose() * features_;
  grad_block(grad, head_bias_) = dout.colwise().sum();
  dfeatures_.noalias() = dout * block(head_);
  backward_blocks(dfeatures_, grad, false, nullptr);
}

void ConvNetModel::input_gradient(ConstMatRef, ConstMatRef dout, MatRef dX) {
  dfeatures_.noalias() = dout * block(head_);
  Vec none;
  backward_blocks(dfeatures_, none, false, &dX);
}

std::vector<HookSpec> ConvNetModel::hook_points() const {
  return {{"features", "n×F", "the flattened pooled output of the last block, the head's input (penultimate "
                              "layer); hook_backward supported"}};
}

void ConvNetModel::hook(const std::string& name, ConstMatRef X, Mat& out) {
  if (name != "features") Model::hook(name, X, out);
  forward_features(X);
  out = features_;
}

void ConvNetModel::hook_backward(const std::string& name, ConstMatRef X, ConstMatRef dhook, VecRef grad) {
  if (name != "features") Model::hook_backward(name, X, dhook, grad);
  forward_features(X);
  backward_blocks(dhook, grad, true, nullptr);
}

}  // namespace featurelab::std_pack
