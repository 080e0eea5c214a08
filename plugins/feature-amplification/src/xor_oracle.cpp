// The four fixed neurons.
#include "xor_oracle.hpp"

#include <featurelab/error.hpp>

namespace feature_amplification {

using namespace featurelab;

XorOracle::XorOracle(const Params&, Context& context) {
  if (!context.features || !context.features->count("means") || context.features->at("means").rows() != 2) {
    throw Error("xor-oracle needs the distribution's XOR \"means\" μ1, μ2 (xor-clusters)");
  }
  means_ = context.features->at("means");
  if (means_.cols() != context.data.dim) throw Error("xor-oracle: the means and the data differ in dimension");
  declare_block("W", 4, context.data.dim, false);
  declare_block("a", 1, 4, false);
  allocate_parameters();
  init(context.rng);
}

void XorOracle::init(Rng&) {
  MatMap W = block("W");
  W.row(0) = means_.row(0);
  W.row(1) = -means_.row(0);
  W.row(2) = means_.row(1);
  W.row(3) = -means_.row(1);
  block("a") << 1, 1, -1, -1;
}

void XorOracle::forward(ConstMatRef X, MatRef out) {
  Z_.noalias() = X * block("W").transpose();
  out.noalias() = Z_.cwiseMax(Scalar(0)) * block("a").transpose();
}

void XorOracle::backward(ConstMatRef, ConstMatRef, VecRef) {}  // nothing is trainable

void XorOracle::input_gradient(ConstMatRef X, ConstMatRef dout, MatRef dX) {
  Z_.noalias() = X * block("W").transpose();
  dH_.noalias() = dout * block("a");
  dH_.array() *= (Z_.array() > Scalar(0)).cast<Scalar>();
  dX.noalias() = dH_ * block("W");
}

}  // namespace feature_amplification
