// The linearised forward/backward, batched.
#include "ntk_two_layer.hpp"

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
void NtkTwoLayer::forward(ConstMatRef X, MatRef out) {
  MatMap Z = Z_.take(X.rows(), width_), H = H_.take(X.rows(), width_), S = S_.take(X.rows(), width_);
  parallel_product_rows(Z, X, block(W0_).transpose());
  Z.rowwise() += block(b0_).row(0);
  truncated_relu(Z, smoothing_, H, S);
  S.array().rowwise() *= block(a0_).row(0).array();
  // Reuse Z for X ΔWᵀ + Δb.
  parallel_product_rows(Z, X, block(dW_).transpose());
  Z.rowwise() += block(db_).row(0);
  out.noalias() = H * block(da_).transpose();
  out.col(0) += (S.array() * Z.array()).rowwise().sum().matrix();
}

void NtkTwoLayer::backward(ConstMatRef X, ConstMatRef dout, VecRef grad) {
  MatMap gW = grad_block(grad, dW_);
  MatMap gb = grad_block(grad, db_);
  MatMap ga = grad_block(grad, da_);
  ga.noalias() = dout.transpose() * H_.view();
  MatMap G = G_.take(dout.rows(), width_);
  G = S_.view().array().colwise() * dout.col(0).array();
  parallel_product_cols(gW, G.transpose(), X);
  gb = G.colwise().sum();
}

}  // namespace featurelab::feature_emergence_pack
