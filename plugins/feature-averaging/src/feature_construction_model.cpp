// Building the three constructions from centres and partition.
#include "feature_construction_model.hpp"

#include "cluster_geometry.hpp"

#include <featurelab/error.hpp>

namespace featurelab::feature_averaging_pack {

Schema FeatureConstructionModel::schema() {
  Schema s;
  s.choice("kind", "average", {"average", "decoupled", "prop48"}, "which construction");
  s.real("bias_plus", 0.0, "average: b+");
  s.real("bias_minus", 0.0, "average: b−");
  return s;
}

FeatureConstructionModel::FeatureConstructionModel(const Params& params, Context& context) {
  const Clusters c = clusters_of(context.features, context.name);
  const Index k = c.centres.rows(), d = c.centres.cols();
  if (context.data.dim != d) throw Error("feature-construction: the data dimension differs from the centres'");
  const std::string kind = params.str("kind");
  if (kind == "average") {
    W_.setZero(2, d);
    for (Index j = 0; j < k; ++j) W_.row(c.sides(j) > 0 ? 0 : 1) += c.centres.row(j);
    b_.resize(1, 2);
    b_ << static_cast<Scalar>(params.real("bias_plus")), static_cast<Scalar>(params.real("bias_minus"));
    a_.resize(1, 2);
    a_ << 1, -1;
  } else if (kind == "decoupled") {
    W_ = c.centres;
    b_ = Mat::Constant(1, k, static_cast<Scalar>(-static_cast<double>(d) / 2));
    a_ = c.sides.cast<Scalar>().transpose();
  } else {
    W_.resize(k, d);
    for (Index j = 0; j < k; ++j) {
      W_.row(j) = c.centres.row(j);
      for (Index l = 0; l < k; ++l) {
        if (c.sides(l) == c.sides(j)) W_.row(j) += c.centres.row(l);  // μ_j + Σ_{l ∈ J_s(j)} μ_l, j included: 2μ_j
      }
    }
    b_ = Mat::Zero(1, k);
    a_ = Mat::Identity(k, k);
  }
  if (kind == "prop48" && context.data.classes != k) {
    throw Error("feature-construction kind = \"prop48\" has one output per cluster: use data.label = \"cluster\"");
  }
  outputs_ = a_.rows();
  W_block_ = declare_block("W", W_.rows(), d, false);
  b_block_ = declare_block("b", 1, W_.rows(), false);
  a_block_ = declare_block("a", a_.rows(), W_.rows(), false);
  allocate_parameters();
  init(context.rng);
}

void FeatureConstructionModel::init(Rng&) {
  block(W_block_) = W_;
  block(b_block_) = b_;
  block(a_block_) = a_;
}

void FeatureConstructionModel::forward(ConstMatRef X, MatRef out) {
  Z_.noalias() = X * block(W_block_).transpose();
  Z_.rowwise() += block(b_block_).row(0);
  H_ = Z_.cwiseMax(Scalar(0));
  out.noalias() = H_ * block(a_block_).transpose();
}

void FeatureConstructionModel::backward(ConstMatRef, ConstMatRef, VecRef) {}  // nothing is trainable

void FeatureConstructionModel::input_gradient(ConstMatRef X, ConstMatRef dout, MatRef dX) {
  Z_.noalias() = X * block(W_block_).transpose();
  Z_.rowwise() += block(b_block_).row(0);
  dH_.noalias() = dout * block(a_block_);
  dH_.array() *= (Z_.array() >= Scalar(0)).cast<Scalar>();  // ReLU'(0) = 1, as the paper's indicator
  dX.noalias() = dH_ * block(W_block_);
}

}  // namespace featurelab::feature_averaging_pack
