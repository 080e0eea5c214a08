// The symmetric InfoNCE of two masked views, as batched products: one hook call and one hook_backward over the 2n
// stacked views, an n×n similarity matrix.
#include "contrastive_views_regularizer.hpp"

#include "hook_point_check.hpp"

#include <featurelab/error.hpp>

#include <algorithm>
#include <cmath>
#include <string>

namespace featurelab::std_pack {

namespace {

// A feature row shorter than this is normalised by it instead (an all-zero row has no direction).
constexpr Scalar kMinNorm = Scalar(1e-6);

}  // namespace

Schema ContrastiveViewsRegularizer::schema() {
  Schema s;
  s.real("lambda", 1.0, "λ: the weight of the contrastive term (Eq. 7.9; the dissertation's MoCo v2 runs: 0.1)").min(0);
  s.string("hook", "features", "the model's hook point whose features φ(x) are contrasted, e.g. conv-net's features");
  s.real("temperature", 0.2, "τ of the cosine similarities (SimCLR's scale)").above(0);
  s.real("keep", 0.5, "q: a pixel is in the first view with probability q, else in the second; views rescaled by "
                      "1/q and 1/(1−q); 1 = no mask").above(0).max(1);
  s.integer("shift", 0, "each view translated by up to this many pixels in each direction (images only; 0: none)")
      .min(0);
  s.integer("from", 0, "first 0-based step at which the term is on").min(0);
  s.integer("until", 0, "the term is off from this step on (0: never off), e.g. the end of pretraining").min(0);
  return s;
}

ContrastiveViewsRegularizer::ContrastiveViewsRegularizer(const Params& params, Context& context)
    : lambda_(params.real("lambda")),
      tau_(params.real("temperature")),
      keep_(params.real("keep")),
      shift_(params.integer("shift")),
      hook_(params.str("hook")),
      from_(params.integer("from")),
      until_(params.integer("until")),
      stream_(context.rng) {
  if (until_ != 0 && until_ <= from_) {
    throw Error(context.name + ": until = " + std::to_string(until_) + " is not after from = " +
                std::to_string(from_) + ": the term would never be on; set until = 0 (no end) or above from");
  }
  if (shift_ > 0) {
    const auto& dims = context.data.shape.dims;
    if (dims.size() != 3 && dims.size() != 2) {
      throw Error(context.name + ": shift = " + std::to_string(shift_) + " translates images, but the data have no "
                  "image shape (C×H×W or H×W); set shift = 0");
    }
    channels_ = dims.size() == 3 ? dims[0] : 1;
    height_ = dims[dims.size() - 2];
    width_ = dims[dims.size() - 1];
    if (shift_ >= height_ || shift_ >= width_) {
      throw Error(context.name + ": shift = " + std::to_string(shift_) + " moves a " + std::to_string(height_) + "×" +
                  std::to_string(width_) + " image out of its frame; lower it");
    }
  }
}

void ContrastiveViewsRegularizer::bind(Model& model) { require_hook_point(model, "contrastive-views", hook_); }

void ContrastiveViewsRegularizer::draw_views(ConstMatRef X, Index step) {
  Rng rng = stream_.fork("step " + std::to_string(step));
  const Index n = X.rows();
  views_.resize(2 * n, X.cols());
  if (keep_ >= 1) {
    views_.topRows(n) = X;
    views_.bottomRows(n) = X;
  } else {
    mask_.resize(n, X.cols());
    for (Index k = 0; k < mask_.size(); ++k) mask_.data()[k] = rng.uniform() < keep_ ? Scalar(1) : Scalar(0);
    views_.topRows(n).array() = X.array() * mask_.array() * static_cast<Scalar>(1 / keep_);
    views_.bottomRows(n).array() = X.array() * (Scalar(1) - mask_.array()) * static_cast<Scalar>(1 / (1 - keep_));
  }
  if (shift_ > 0) translate(views_, rng);
}

void ContrastiveViewsRegularizer::translate(MatRef V, Rng& rng) {
  if (channels_ * height_ * width_ != V.cols()) {
    throw Error("contrastive-views: a batch row has " + std::to_string(V.cols()) + " values, the image shape " +
                std::to_string(channels_ * height_ * width_));
  }
  shifted_.resize(V.cols());
  for (Index i = 0; i < V.rows(); ++i) {
    const Index dy = rng.integer(-shift_, shift_), dx = rng.integer(-shift_, shift_);
    shifted_.setZero();
    for (Index c = 0; c < channels_; ++c) {
      for (Index y = std::max<Index>(0, dy); y < std::min(height_, height_ + dy); ++y) {
        const Index from = (c * height_ + y - dy) * width_, to = (c * height_ + y) * width_;
        for (Index x = std::max<Index>(0, dx); x < std::min(width_, width_ + dx); ++x) {
          shifted_(to + x) = V(i, from + x - dx);
        }
      }
    }
    V.row(i) = shifted_.transpose();
  }
}

double ContrastiveViewsRegularizer::similarities(Model& model) {
  model.hook(hook_, views_, features_);
  const Index n = views_.rows() / 2;
  norms_ = features_.rowwise().norm().cwiseMax(kMinNorm);
  unit_ = norms_.cwiseInverse().asDiagonal() * features_;
  S_.noalias() = unit_.topRows(n) * unit_.bottomRows(n).transpose();
  S_ *= static_cast<Scalar>(1 / tau_);
  // L = (1/2n) Σ (lse of each row − its diagonal) + (1/2n) Σ (lse of each column − its diagonal), in double.
  double total = 0;
  for (Index i = 0; i < n; ++i) {
    const double row_max = S_.row(i).maxCoeff(), col_max = S_.col(i).maxCoeff();
    const double row_lse = row_max + std::log((S_.row(i).array().template cast<double>() - row_max).exp().sum());
    const double col_lse = col_max + std::log((S_.col(i).array().template cast<double>() - col_max).exp().sum());
    total += row_lse + col_lse - 2.0 * static_cast<double>(S_(i, i));
  }
  return total / (2.0 * static_cast<double>(n));
}

Scalar ContrastiveViewsRegularizer::penalty(Model& model, const Batch& batch, Index step) {
  if (!active(step) || batch.n == 0) return 0;
  draw_views(batch.X(), step);
  return static_cast<Scalar>(lambda_ * similarities(model));
}

Scalar ContrastiveViewsRegularizer::add_penalty(Model& model, const Batch& batch, Index step, VecRef grad) {
  if (!active(step) || batch.n == 0) return 0;
  draw_views(batch.X(), step);
  const double value = lambda_ * similarities(model);
  const Index n = batch.n;
  // dS = λ/2n · (softmax over each row − I + softmax over each column − I).
  const Scalar scale = static_cast<Scalar>(lambda_ / (2.0 * static_cast<double>(n)));
  dS_.resize(n, n);
  for (Index i = 0; i < n; ++i) {
    const Scalar row_max = S_.row(i).maxCoeff();
    dS_.row(i) = (S_.row(i).array() - row_max).exp();
    dS_.row(i) /= dS_.row(i).sum();
  }
  Mat column_softmax = S_;
  for (Index j = 0; j < n; ++j) {
    const Scalar col_max = S_.col(j).maxCoeff();
    column_softmax.col(j) = (S_.col(j).array() - col_max).exp();
    column_softmax.col(j) /= column_softmax.col(j).sum();
  }
  dS_ += column_softmax;
  dS_.diagonal().array() -= Scalar(2);
  dS_ *= scale / static_cast<Scalar>(tau_);  // S = Â P̂ᵀ/τ: the 1/τ goes into dÂ and dP̂
  // dÂ = dS P̂, dP̂ = dSᵀ Â; then the normalisation's Jacobian (I − ûûᵀ)/‖u‖ row by row.
  dunit_.resize(2 * n, unit_.cols());
  dunit_.topRows(n).noalias() = dS_ * unit_.bottomRows(n);
  dunit_.bottomRows(n).noalias() = dS_.transpose() * unit_.topRows(n);
  // A row normalised by kMinNorm (not its own norm) is a linear map of the features: no radial part.
  const Vec radial = (norms_.array() > kMinNorm).select((dunit_.array() * unit_.array()).rowwise().sum(), Scalar(0));
  dfeatures_ = norms_.cwiseInverse().asDiagonal() * (dunit_ - radial.asDiagonal() * unit_);
  model.hook_backward(hook_, views_, dfeatures_, grad);
  return static_cast<Scalar>(value);
}

}  // namespace featurelab::std_pack
