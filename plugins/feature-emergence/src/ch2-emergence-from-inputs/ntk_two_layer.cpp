// The linearised forward/backward, batched.
#include "ntk_two_layer.hpp"

#include "coded_products.hpp"
#include "truncated_activation.hpp"

#include <featurelab/error.hpp>
#include <featurelab/parallel_product.hpp>

namespace featurelab::feature_emergence_pack {

Schema NtkTwoLayer::schema() {
  Schema s;
  declare_network_schema(s);  // of the network it linearises; its tangent features use the smoothing
  return s;
}

NtkTwoLayer::NtkTwoLayer(const Params& params, Context& context)
    : width_(params.integer("width")),
      dim_(context.data.dim),
      sigma_w_(params.real("init_w")),
      sigma_b_(params.real("init_b")),
      sigma_a_(params.real("init_a")),
      smoothing_(params.real("smoothing")) {
  if (width_ % 2 != 0) throw Error("width must be even, got " + std::to_string(width_));
  if (context.data.classes != 2) throw Error("ntk-two-layer is a binary classifier (one output)");
  dW_ = declare_block("dW", width_, dim_, true);
  db_ = declare_block("db", 1, width_, true);
  da_ = declare_block("da", 1, width_, true);
  W0_ = declare_block("W0", width_, dim_, false);
  b0_ = declare_block("b0", 1, width_, false);
  a0_ = declare_block("a0", 1, width_, false);
  allocate_parameters();
}

void NtkTwoLayer::init(Rng& rng) {
  symmetric_init(rng, sigma_w_, sigma_b_, sigma_a_, block(W0_), block(b0_), block(a0_));
  block(dW_).setZero();
  block(db_).setZero();
  block(da_).setZero();
}

// The products over the batch (n × D by D × m, and the gradient's m × n by n × D) are blocked products on the job's
// threads and the process's kernel (featurelab/parallel_product.hpp), as the network's own (truncated_two_layer.cpp):
// the accuracy probe runs this forward pass over all 50,000 training samples at every evaluation, which on one
// thread and Eigen's kernel cost more than the training steps between two evaluations (bench/README.md, round 23).
template <class Delta>
void NtkTwoLayer::linearised(Delta&& delta, MatRef out) {
  MatMap Z = Z_.view();
  MatMap H = H_.take(Z.rows(), width_), S = S_.take(Z.rows(), width_);
  Z.rowwise() += block(b0_).row(0);
  truncated_relu(Z, smoothing_, H, S);
  S.array().rowwise() *= block(a0_).row(0).array();
  delta(Z);  // reuse Z for X ΔWᵀ
  Z.rowwise() += block(db_).row(0);
  out.noalias() = H * block(da_).transpose();
  out.col(0) += (S.array() * Z.array()).rowwise().sum().matrix();
}

void NtkTwoLayer::forward(ConstMatRef X, MatRef out) {
  MatMap Z = Z_.take(X.rows(), width_);
  parallel_product_rows(Z, X, block(W0_).transpose());
  linearised([&](MatMap& Zd) { parallel_product_rows(Zd, X, block(dW_).transpose()); }, out);
}

bool NtkTwoLayer::forward_coded(const Batch& batch, MatRef out) {
  if (!batch.codes_pay()) return false;
  coded_preactivations(Z_.take(batch.n, width_), batch, block(W0_), codes_by_w_);
  linearised([&](MatMap& Zd) { coded_preactivations(Zd, batch, block(dW_), codes_by_w_); }, out);
  return true;
}

void NtkTwoLayer::output_gradients(ConstMatRef dout, VecRef grad) {
  grad_block(grad, da_).noalias() = dout.transpose() * H_.view();
  MatMap G = G_.take(dout.rows(), width_);
  G = S_.view().array().colwise() * dout.col(0).array();
  grad_block(grad, db_) = G.colwise().sum();
}

void NtkTwoLayer::backward(ConstMatRef X, ConstMatRef dout, VecRef grad) {
  output_gradients(dout, grad);
  MatMap gW = grad_block(grad, dW_);
  parallel_product_cols(gW, G_.view().transpose(), X);
}

bool NtkTwoLayer::backward_coded(const Batch& batch, ConstMatRef dout, VecRef grad) {
  if (!batch.codes_pay()) return false;
  output_gradients(dout, grad);
  coded_weight_gradient(grad_block(grad, dW_), G_.view(), batch, grad_by_codes_);
  return true;
}

}  // namespace featurelab::feature_emergence_pack
