// Softmax cross-entropy: stable log-softmax; gradient (p − t)/n.
#include "cross_entropy_loss.hpp"

#include <featurelab/error.hpp>

#include <cmath>

namespace featurelab::std_pack {

Schema CrossEntropyLoss::schema() {
  Schema s;
  s.real("label_smoothing", 0.0, "mix the targets with the uniform distribution by this weight").min(0).below(1);
  return s;
}

CrossEntropyLoss::CrossEntropyLoss(const Params& params, Context&)
    : smoothing_(static_cast<Scalar>(params.real("label_smoothing"))) {}

void CrossEntropyLoss::check_model(const Model& model, const DataSpec& data) const {
  if (model.outputs() < 2) {
    throw Error("cross-entropy needs one output per class (" + std::to_string(std::max(2, data.classes)) +
                "), the model has " + std::to_string(model.outputs()) + "; set model.outputs = " +
                std::to_string(std::max(2, data.classes)) + ", or use loss logistic for one output");
  }
}

Scalar CrossEntropyLoss::value_and_gradient(ConstMatRef out, const Batch& batch, MatRef dout) const {
  const Index n = out.rows(), k = out.cols();
  probs_.resize(n, k);
  probs_ = out;
  row_top_ = probs_.rowwise().maxCoeff();
  probs_.colwise() -= row_top_;
  probs_.array() = probs_.array().exp();
  row_sum_ = probs_.rowwise().sum();
  // log p_ij = out_ij − max_i − log Σ exp(out_i − max_i)
  log_norm_ = row_sum_.array().log();
  log_norm_ += row_top_;
  const Vec& log_norm = log_norm_;
  probs_.array().colwise() /= row_sum_.array();
  const Scalar uniform = smoothing_ / static_cast<Scalar>(k);
  double total = 0;
  dout = probs_;
  if (batch.has_targets()) {
    const ConstMatMap T = batch.T();
    for (Index i = 0; i < n; ++i) {
      for (Index j = 0; j < k; ++j) {
        const Scalar t = (Scalar(1) - smoothing_) * T(i, j) + uniform;
        total -= static_cast<double>(t * (out(i, j) - log_norm(i)));
        dout(i, j) -= t;
      }
    }
  } else {
    const ConstIVecMap y = batch.Y();
    for (Index i = 0; i < n; ++i) {
      if (smoothing_ > 0) {
        total -= static_cast<double>(uniform * (out.row(i).array() - log_norm(i)).sum());
        dout.row(i).array() -= uniform;
      }
      total -= static_cast<double>((Scalar(1) - smoothing_) * (out(i, y(i)) - log_norm(i)));
      dout(i, y(i)) -= Scalar(1) - smoothing_;
    }
  }
  dout /= static_cast<Scalar>(n);
  return static_cast<Scalar>(total / static_cast<double>(n));
}

double CrossEntropyLoss::row_block(ConstMatRef out, const Batch& batch, Index first, Index total, MatRef dout) const {
  // The terms of value_and_gradient row by row, with dout as the only scratch (several threads call it):
  // dout's row holds exp(out − max) until it becomes (p − t)/total.
  const Index k = out.cols();
  const Scalar uniform = smoothing_ / static_cast<Scalar>(k);
  double sum = 0;
  for (Index i = 0; i < out.rows(); ++i) {
    const Index row = first + i;
    const Scalar top = out.row(i).maxCoeff();
    dout.row(i) = (out.row(i).array() - top).exp().matrix();
    const Scalar norm = dout.row(i).sum();
    const Scalar log_norm = top + std::log(norm);
    dout.row(i) /= norm;
    if (batch.has_targets()) {
      const ConstMatMap T = batch.T();
      for (Index j = 0; j < k; ++j) {
        const Scalar t = (Scalar(1) - smoothing_) * T(row, j) + uniform;
        sum -= static_cast<double>(t * (out(i, j) - log_norm));
        dout(i, j) -= t;
      }
    } else {
      const Index y = batch.Y()(row);
      if (smoothing_ > 0) {
        sum -= static_cast<double>(uniform * (out.row(i).array() - log_norm).sum());
        dout.row(i).array() -= uniform;
      }
      sum -= static_cast<double>((Scalar(1) - smoothing_) * (out(i, y) - log_norm));
      dout(i, y) -= Scalar(1) - smoothing_;
    }
    dout.row(i) /= static_cast<Scalar>(total);
  }
  return sum;
}

}  // namespace featurelab::std_pack
