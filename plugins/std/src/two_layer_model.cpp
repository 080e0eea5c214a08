// Two-layer network: one product forward (X Wᵀ: Eigen's GEMM, or register tiles from 64 units), one backward (Gᵀ X),
// elementwise work fused.
#include "two_layer_model.hpp"

#include "two_layer_narrow_products.hpp"
#include "two_layer_small_input.hpp"

#include <featurelab/error.hpp>
#include <featurelab/loss.hpp>
#include <featurelab/parallel_product.hpp>
#include <featurelab/threads.hpp>
#include <featurelab/tiled_products.hpp>

#include <algorithm>
#include <cmath>
#include <type_traits>

namespace featurelab::std_pack {

Schema TwoLayerModel::common_schema(bool random_features) {
  Schema s;
  s.integer("width", 100, "hidden units m").min(1);
  Activation::declare(s);
  s.boolean("bias", false, "first-layer bias b (trained unless the first layer is frozen)");
  s.integer("outputs", Automatic{"1 for two classes (binary, ±1 labels), else one per class"}, "outputs K").min(1);
  s.real("init_scale", Automatic{"1/√D"}, "std of the first-layer weights").above(0);
  s.real("bias_init_scale", 0.0, "std of the initial bias (Li et al.: σ_b = σ_w); 0 = start from zero").min(0);
  if (random_features) {
    s.real("second_scale", 0.0, "std of the initial second layer; 0 = start from zero").min(0);
  } else {
    s.choice("second_layer", "balanced", {"balanced", "random-sign", "per-class", "trainable"},
             "second layer: balanced (±s, half each, fixed; one output), random-sign (±s i.i.d., fixed), "
             "per-class (group c of neurons feeds output c with weight s, fixed), trainable (N(0, s²))");
    s.real("second_scale", Automatic{"1/√m"}, "s: magnitude (or std) of the second layer").above(0);
  }
  return s;
}

Schema TwoLayerModel::schema() { return common_schema(false); }

TwoLayerModel::TwoLayerModel(const Params& params, Context& context, bool random_features)
    : activation_(params, context),
      width_(params.integer("width")),
      dim_(context.data.dim),
      bias_(params.boolean("bias")),
      random_features_(random_features),
      second_layer_(random_features ? "trainable" : params.str("second_layer")),
      init_scale_(params.real_or_auto("init_scale")),
      bias_init_scale_(params.real("bias_init_scale")),
      second_scale_(params.real_or_auto("second_scale")) {
  const auto requested = params.integer_or_auto("outputs");
  outputs_ = requested ? *requested : (context.data.classes == 2 ? 1 : std::max(1, context.data.classes));
  if (dim_ <= 0) throw Error("the data has no input dimension (a distribution bug)");
  if (second_layer_ == "balanced" && outputs_ != 1) {
    throw Error("second_layer = \"balanced\" needs one output, this model has " + std::to_string(outputs_) +
                "; use second_layer = \"per-class\" or \"random-sign\" for several classes");
  }
  if (second_layer_ == "per-class" && width_ % outputs_ != 0) {
    throw Error("second_layer = \"per-class\" splits the width into " + std::to_string(outputs_) +
                " equal groups, but width = " + std::to_string(width_) + "; use a multiple of " +
                std::to_string(outputs_));
  }
  const bool first_trainable = !random_features_;
  W_ = declare_block("W", width_, dim_, first_trainable);
  if (bias_) b_ = declare_block("b", 1, width_, first_trainable);
  a_ = declare_block("a", outputs_, width_, second_layer_ == "trainable");
  allocate_parameters();
  block_rows_ = std::max<Index>(8, 16384 / width_);
}

void TwoLayerModel::init(Rng& rng) {
  const double w_std = init_scale_ ? *init_scale_ : 1.0 / std::sqrt(static_cast<double>(dim_));
  rng.fill_normal(block(W_), w_std);
  if (bias_ && bias_init_scale_ > 0) {
    rng.fill_normal(block(b_), bias_init_scale_);
  } else if (bias_) {
    block(b_).setZero();
  }
  MatMap a = block(a_);
  // random-features' second_scale is a number (0: start from zero); two-layer's may be auto.
  const double s = second_scale_ ? *second_scale_ : 1.0 / std::sqrt(double(width_));
  if (second_layer_ == "balanced") {
    for (Index j = 0; j < width_; ++j) {
      const bool odd_last = width_ % 2 == 1 && j == width_ - 1;
      a(0, j) = odd_last ? Scalar(0) : static_cast<Scalar>(j < width_ / 2 ? s : -s);
    }
  } else if (second_layer_ == "random-sign") {
    for (Index k = 0; k < outputs_; ++k) {
      for (Index j = 0; j < width_; ++j) a(k, j) = static_cast<Scalar>(rng.bernoulli(0.5) ? s : -s);
    }
  } else if (second_layer_ == "per-class") {
    a.setZero();
    const Index group = width_ / outputs_;
    for (Index k = 0; k < outputs_; ++k) a.block(k, k * group, 1, group).setConstant(static_cast<Scalar>(s));
  } else if (s > 0) {
    rng.fill_normal(a, s);
  } else {
    a.setZero();
  }
}

void TwoLayerModel::pre_activation(ConstMatRef X) {
  Z_.resize(X.rows(), width_);
  if (tiled()) {
    tiled_pre_activation(X);
  } else {
    parallel_product_rows(Z_, X, block(W_).transpose());
  }
  if (bias_) Z_.rowwise() += block(b_).row(0);
}

namespace {

// Rows of X per pass of ∇Wᵀ's tiles: their inputs and their rows of G stay in L2 while the tiles of every input
// sweep them (as in contrastive-decoupling's symmetric-relu-layer).
constexpr Index kGradientRows = 128;

}  // namespace

void TwoLayerModel::tiled_pre_activation(ConstMatRef X) {
  using tiled_products::kLanes;
  const Index rows = X.rows(), whole = width_ / kLanes * kLanes, tail = width_ - whole;
  const Index padded = tiled_products::padded_width(width_);
  if (Wt_.rows() != dim_ || Wt_.cols() != padded) Wt_.setZero(dim_, padded);  // the padding stays 0
  Wt_.leftCols(width_) = block(W_).transpose();
  if (tail > 0) Z_tail_.resize(rows, kLanes);
  const Index ldx = X.outerStride();
  // Blocks of rows on the job's threads: the whole strips straight into Z, the last columns as one padded strip.
  detail::over_product_blocks(rows, product_blocks(rows, detail::product_flops(rows, dim_, width_)), [&](Index begin, Index size) {
    const Scalar* x = X.data() + begin * ldx;
    if (whole > 0) tiled_products::times<false>(x, ldx, size, dim_, Wt_.data(), padded, Z_.data() + begin * width_, width_, whole);
    if (tail > 0) {
      tiled_products::times<false>(x, ldx, size, dim_, Wt_.data() + whole, padded, Z_tail_.data() + begin * kLanes, kLanes, kLanes);
      Z_.block(begin, whole, size, tail) = Z_tail_.block(begin, 0, size, tail);
    }
  });
}

void TwoLayerModel::tiled_weight_gradient(ConstMatRef X, MatRef dW) {
  using tiled_products::kLanes;
  const Index rows = X.rows(), whole = width_ / kLanes * kLanes, tail = width_ - whole;
  const Index padded = tiled_products::padded_width(width_);
  if (tail > 0) {
    if (G_tail_.rows() != rows) G_tail_.setZero(rows, kLanes);  // the padding stays 0
    G_tail_.leftCols(tail) = G_.rightCols(tail);
  }
  dWt_.setZero(dim_, padded);
  const Index ldx = X.outerStride();
  // ∇Wᵀ by blocks of inputs on the job's threads; within a block every row of the batch in order.
  detail::over_product_blocks(dim_, product_blocks(dim_, detail::product_flops(rows, dim_, width_)), [&](Index begin, Index size) {
    for (Index r = 0; r < rows; r += kGradientRows) {
      const Index count = std::min(kGradientRows, rows - r);
      const Scalar* x = X.data() + r * ldx + begin;
      Scalar* dwt = dWt_.data() + begin * padded;
      if (whole > 0) tiled_products::add_transpose_times(x, ldx, count, size, G_.data() + r * width_, width_, dwt, padded, whole);
      if (tail > 0) tiled_products::add_transpose_times(x, ldx, count, size, G_tail_.data() + r * kLanes, kLanes, dwt + whole, padded, kLanes);
    }
  });
  dW = dWt_.leftCols(width_).transpose();
}

void TwoLayerModel::activations() {
  H_.resize(Z_.rows(), width_);
  D_.resize(Z_.rows(), width_);
  parallel_over_chunks(Z_.rows(), [&](Index, Index first, Index last) {
    activation_.apply(Z_.middleRows(first, last - first), H_.middleRows(first, last - first),
                      D_.middleRows(first, last - first));
  });
}

void TwoLayerModel::size_chunk_scratch(bool gradient) {
  chunks_.resize(static_cast<std::size_t>(parallel_chunks));
  for (auto& s : chunks_) {
    s.Z.resize(block_rows_, width_);
    s.H.resize(block_rows_, width_);
    s.D.resize(block_rows_, width_);
    s.G.resize(block_rows_, width_);
    if (gradient) s.grad.resize(trainable_size());
  }
}

void TwoLayerModel::block_activations(ChunkScratch& s, ConstMatRef X, Index begin, Index rows, bool values, bool derivatives) {
  auto Z = s.Z.topRows(rows);
  Z.noalias() = X.middleRows(begin, rows) * block(W_).transpose();
  if (bias_) Z.rowwise() += block(b_).row(0);
  if (values && derivatives) {
    activation_.apply(Z, s.H.topRows(rows), s.D.topRows(rows));
  } else if (values) {
    activation_.value(Z, s.H.topRows(rows));
  } else {
    activation_.derivative(Z, s.D.topRows(rows));
  }
}

bool TwoLayerModel::fused_step(const Batch& batch, const SeparableLoss& loss, VecRef grad, Scalar& value) {
  if (outputs_ != 1 || !activation_.fusable()) return false;
  if (recompute()) {
    // Few inputs: the per-row step up to kSmallInputMaxDim; beyond, the recompute mode's blocked passes.
    if (dim_ > kSmallInputMaxDim || !(block_info(W_).trainable || block_info(a_).trainable)) return false;
    small_input_step(batch, loss);
  } else {
    // A wide first layer runs nearer the machine's peak as two whole-batch products.
    if (width_ * dim_ > kFusedMaxWeights) return false;
    fused_step_blocks(batch, loss);
  }
  double total = 0;
  for (const auto& s : chunks_) total += s.loss;  // in chunk order
  value = static_cast<Scalar>(total / static_cast<double>(batch.n));
  add_chunk_gradients(grad);
  return true;
}

void TwoLayerModel::small_input_step(const Batch& batch, const SeparableLoss& loss) {
  static_assert(kSmallInputMaxDim <= small_input::kMaxDim, "the run-time dimension's sums are sized kMaxDim");
  const bool w_trains = block_info(W_).trainable, a_trains = block_info(a_).trainable;
  const Index padded = small_input::padded_width(width_);
  Mat& L = small_input_layer_;
  if (L.rows() != dim_ + 2 || L.cols() != padded) L.setZero(dim_ + 2, padded);  // the padding stays 0
  L.topLeftCorner(dim_, width_) = block(W_).transpose();
  if (bias_) L.block(dim_, 0, 1, width_) = block(b_);
  L.block(dim_ + 1, 0, 1, width_) = block(a_);
  const small_input::Layer layer{L.data(), L.row(dim_).data(), L.row(dim_ + 1).data(), dim_, padded};
  chunks_.resize(static_cast<std::size_t>(parallel_chunks));
  for (auto& s : chunks_) {
    s.out.resize(kSmallInputLossRows, 1);
    s.dout.resize(kSmallInputLossRows, 1);
    s.grad.resize(trainable_size());
    s.G.resize(dim_ + 2, padded);
  }
  const Index n = batch.n;
  auto chunk_pass = [&](auto dim_constant, const auto& phi) {
    constexpr int Dim = decltype(dim_constant)::value;
    parallel_over_chunks(n, [&](Index chunk, Index first, Index last) {
      ChunkScratch& s = chunks_[static_cast<std::size_t>(chunk)];
      s.G.setZero();
      s.loss = 0;
      const small_input::Accumulators acc{s.G.data(), w_trains, bias_ && w_trains, a_trains};
      for (Index begin = first; begin < last; begin += kSmallInputLossRows) {
        const Index rows = std::min(kSmallInputLossRows, last - begin);
        const Scalar* X = batch.x + begin * dim_;
        for (Index r = 0; r < rows; ++r) s.out(r, 0) = small_input::row_output<Dim>(phi, layer, X + r * dim_);
        s.loss += loss.row_block(s.out.topRows(rows), batch, begin, n, s.dout.topRows(rows));
        small_input::block_gradient<Dim>(phi, layer, X, rows, s.dout.data(), acc);
      }
      s.grad.setZero();
      if (w_trains) grad_block(s.grad, W_) = s.G.topLeftCorner(dim_, width_).transpose();
      if (bias_ && w_trains) grad_block(s.grad, b_) = s.G.block(dim_, 0, 1, width_);
      if (a_trains) grad_block(s.grad, a_) = s.G.block(dim_ + 1, 0, 1, width_);
    });
  };
  // Frei et al.'s D = 2 (and 1) with its loops unrolled; up to kSmallInputMaxDim with them at run time.
  activation_.visit([&](const auto& phi) {
    if (dim_ == 2) {
      chunk_pass(std::integral_constant<int, 2>{}, phi);
    } else if (dim_ == 1) {
      chunk_pass(std::integral_constant<int, 1>{}, phi);
    } else {
      chunk_pass(std::integral_constant<int, 0>{}, phi);
    }
  });
}

void TwoLayerModel::fused_step_blocks(const Batch& batch, const SeparableLoss& loss) {
  const bool w_trains = block_info(W_).trainable, a_trains = block_info(a_).trainable;
  const Index block_rows = std::clamp<Index>(kFusedBlockFloats / dim_, 8, 256);
  // A few units (Li et al.'s m = 10): products that read X in place (two_layer_narrow_products.hpp).
  const bool narrow = width_ <= kNarrowMaxWidth;
  chunks_.resize(static_cast<std::size_t>(parallel_chunks));
  for (auto& s : chunks_) {
    s.out.resize(block_rows, 1);
    s.dout.resize(block_rows, 1);
    s.grad.resize(trainable_size());
    s.Z.resize(block_rows, width_);
    s.H.resize(block_rows, width_);
    s.D.resize(block_rows, width_);
    s.G.resize(block_rows, width_);
  }
  const ConstMatMap X = batch.X();
  const Index n = batch.n;
  parallel_over_chunks(n, [&](Index chunk, Index first, Index last) {
    ChunkScratch& s = chunks_[static_cast<std::size_t>(chunk)];
    s.grad.setZero();
    s.loss = 0;
    for (Index begin = first; begin < last; begin += block_rows) {
      const Index rows = std::min(block_rows, last - begin);
      const auto Xb = X.middleRows(begin, rows);  // read here, and again below while in cache
      auto Z = s.Z.topRows(rows);
      auto H = s.H.topRows(rows);
      auto D = s.D.topRows(rows);
      if (narrow) {
        narrow::times_transpose(batch.x + begin * dim_, rows, dim_, block(W_).data(), width_, Z.data());
      } else {
        Z.noalias() = Xb * block(W_).transpose();
      }
      if (bias_) Z.rowwise() += block(b_).row(0);
      activation_.apply(Z, H, D);
      s.out.topRows(rows).noalias() = H * block(a_).transpose();
      s.loss += loss.row_block(s.out.topRows(rows), batch, begin, n, s.dout.topRows(rows));
      const auto d = s.dout.topRows(rows);
      if (a_trains) grad_block(s.grad, a_).noalias() += d.transpose() * H;
      if (!w_trains) continue;
      auto G = s.G.topRows(rows);
      G.array() = (D.array().colwise() * d.col(0).array()).rowwise() * block(a_).row(0).array();
      if (narrow) {
        narrow::add_transpose_times(G.data(), rows, width_, batch.x + begin * dim_, dim_, grad_block(s.grad, W_).data());
      } else {
        grad_block(s.grad, W_).noalias() += G.transpose() * Xb;
      }
      if (bias_) grad_block(s.grad, b_) += G.colwise().sum();
    }
  });
}

void TwoLayerModel::add_chunk_gradients(VecRef grad) const {
  for (const auto& b : blocks()) {
    if (!b.trainable) continue;
    auto g = grad.segment(b.offset, b.rows * b.cols);
    g = chunks_[0].grad.segment(b.offset, b.rows * b.cols);
    for (std::size_t c = 1; c < chunks_.size(); ++c) g += chunks_[c].grad.segment(b.offset, b.rows * b.cols);
  }
}

void TwoLayerModel::forward(ConstMatRef X, MatRef out) {
  if (recompute()) {
    size_chunk_scratch(false);
    parallel_over_chunks(X.rows(), [&](Index chunk, Index first, Index last) {
      ChunkScratch& s = chunks_[static_cast<std::size_t>(chunk)];
      for (Index begin = first; begin < last; begin += block_rows_) {
        const Index rows = std::min(block_rows_, last - begin);
        block_activations(s, X, begin, rows, true, false);
        out.middleRows(begin, rows).noalias() = s.H.topRows(rows) * block(a_).transpose();
      }
    });
    return;
  }
  pre_activation(X);
  activations();
  parallel_product_rows(out, H_, block(a_).transpose());
}

void TwoLayerModel::hidden_gradient(ConstMatRef dout) {
  G_.resize(dout.rows(), width_);
  parallel_over_chunks(dout.rows(), [&](Index, Index first, Index last) {
    auto G = G_.middleRows(first, last - first);
    if (outputs_ == 1) {
      // G = diag(dout) φ'(Z) diag(a): one fused pass, no outer product materialised.
      G.array() = (D_.middleRows(first, last - first).array().colwise() * dout.col(0).segment(first, last - first).array())
                      .rowwise() *
                  block(a_).row(0).array();
    } else {
      G.noalias() = dout.middleRows(first, last - first) * block(a_);
      G.array() *= D_.middleRows(first, last - first).array();
    }
  });
}

void TwoLayerModel::backward(ConstMatRef X, ConstMatRef dout, VecRef grad) {
  if (recompute()) {
    // Every chunk accumulates its rows' gradient over blocks, recomputing their activations (D·m
    // multiply-adds per row); the chunks' sums are added in chunk order.
    const bool w_trains = block_info(W_).trainable, a_trains = block_info(a_).trainable;
    size_chunk_scratch(true);
    parallel_over_chunks(X.rows(), [&](Index chunk, Index first, Index last) {
      ChunkScratch& s = chunks_[static_cast<std::size_t>(chunk)];
      s.grad.setZero();
      for (Index begin = first; begin < last; begin += block_rows_) {
        const Index rows = std::min(block_rows_, last - begin);
        block_activations(s, X, begin, rows, a_trains, w_trains);
        const auto d = dout.middleRows(begin, rows);
        if (a_trains) grad_block(s.grad, a_).noalias() += d.transpose() * s.H.topRows(rows);
        if (!w_trains) continue;
        auto G = s.G.topRows(rows);
        if (outputs_ == 1) {
          // G = diag(dout) φ'(Z) diag(a): one fused pass, no outer product materialised.
          G.array() = (s.D.topRows(rows).array().colwise() * d.col(0).array()).rowwise() * block(a_).row(0).array();
        } else {
          G.noalias() = d * block(a_);
          G.array() *= s.D.topRows(rows).array();
        }
        grad_block(s.grad, W_).noalias() += G.transpose() * X.middleRows(begin, rows);
        if (bias_) grad_block(s.grad, b_) += G.colwise().sum();
      }
    });
    add_chunk_gradients(grad);
    return;
  }
  if (block_info(W_).trainable) {
    hidden_gradient(dout);
    if (tiled()) {
      tiled_weight_gradient(X, grad_block(grad, W_));
    } else {
      parallel_product_cols(grad_block(grad, W_), G_.transpose(), X);
    }
    if (bias_) grad_block(grad, b_) = G_.colwise().sum();
  }
  if (block_info(a_).trainable) grad_block(grad, a_).noalias() = dout.transpose() * H_;
}

void TwoLayerModel::input_gradient(ConstMatRef X, ConstMatRef dout, MatRef dX) {
  if (recompute()) {
    size_chunk_scratch(false);
    parallel_over_chunks(X.rows(), [&](Index chunk, Index first, Index last) {
      ChunkScratch& s = chunks_[static_cast<std::size_t>(chunk)];
      for (Index begin = first; begin < last; begin += block_rows_) {
        const Index rows = std::min(block_rows_, last - begin);
        block_activations(s, X, begin, rows, false, true);
        auto G = s.G.topRows(rows);
        G.noalias() = dout.middleRows(begin, rows) * block(a_);
        G.array() *= s.D.topRows(rows).array();
        dX.middleRows(begin, rows).noalias() = G * block(W_);
      }
    });
    return;
  }
  hidden_gradient(dout);
  parallel_product_rows(dX, G_, block(W_));
}

std::vector<HookSpec> TwoLayerModel::hook_points() const {
  return {{"hidden.pre", "n×m", "pre-activations Wx + b (backpropagates: regularizers of features)"},
          {"hidden.post", "n×m", "activations φ(Wx + b) (backpropagates: regularizers of features)"}};
}

void TwoLayerModel::hook(const std::string& name, ConstMatRef X, Mat& out) {
  if (name != "hidden.pre" && name != "hidden.post") Model::hook(name, X, out);
  pre_activation(X);
  if (name == "hidden.pre") {
    out = Z_;
    return;
  }
  out.resize(Z_.rows(), width_);
  D_.resize(Z_.rows(), width_);
  activation_.apply(Z_, out, D_);
}

void TwoLayerModel::hook_backward(const std::string& name, ConstMatRef X, ConstMatRef dhook, VecRef grad) {
  if (name != "hidden.pre" && name != "hidden.post") Model::hook_backward(name, X, dhook, grad);
  if (random_features_) return;  // the first layer is frozen: no trainable parameter below the hook
  pre_activation(X);
  // G_ is backward()'s buffer; the loss gradient is complete by the time a regularizer runs.
  G_.resize(Z_.rows(), width_);
  G_ = dhook;
  if (name == "hidden.post") {
    H_.resize(Z_.rows(), width_);
    D_.resize(Z_.rows(), width_);
    activation_.apply(Z_, H_, D_);
    G_.array() *= D_.array();
  }
  grad_block(grad, W_).noalias() += G_.transpose() * X;
  if (bias_) grad_block(grad, b_) += G_.colwise().sum();
}

}  // namespace featurelab::std_pack
