// The four fixed neurons.
#include "xor_oracle_model.hpp"

#include <featurelab/error.hpp>

namespace featurelab::feature_amplification_pack {

XorOracleModel::XorOracleModel(const Params&, Context& context) {
  // The XOR means μ1, μ2, in the data's space.
  means_ = require_feature(context.features, context.name, "means", "use data.use = \"xor-clusters\", which exposes it",
                           2, context.data.dim);
  W_ = declare_block("W", 4, context.data.dim, false);
  a_ = declare_block("a", 1, 4, false);
  allocate_parameters();
  init(context.rng);
}

void XorOracleModel::init(Rng&) {
  MatMap W = block(W_);
  W.row(0) = means_.row(0);
  W.row(1) = -means_.row(0);
  W.row(2) = means_.row(1);
  W.row(3) = -means_.row(1);
  block(a_) << 1, 1, -1, -1;
}

void XorOracleModel::forward(ConstMatRef X, MatRef out) {
  Z_.noalias() = X * block(W_).transpose();
  out.noalias() = Z_.cwiseMax(Scalar(0)) * block(a_).transpose();
}

void XorOracleModel::backward(ConstMatRef, ConstMatRef, VecRef) {}  // nothing is trainable

void XorOracleModel::input_gradient(ConstMatRef X, ConstMatRef dout, MatRef dX) {
  Z_.noalias() = X * block(W_).transpose();
  dH_.noalias() = dout * block(a_);
  dH_.array() *= (Z_.array() > Scalar(0)).cast<Scalar>();
  dX.noalias() = dH_ * block(W_);
}

}  // namespace featurelab::feature_amplification_pack
