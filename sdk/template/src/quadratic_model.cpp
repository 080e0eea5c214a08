// The quadratic model: one fused pass per function, buffers reused while the batch size is stable.
#include "quadratic_model.hpp"

namespace margins_pack {

using namespace featurelab;

Schema QuadraticModel::schema() {
  Schema s;
  s.real("init_scale", 0.1, "standard deviation of the initial w and q").min(0);
  return s;
}

QuadraticModel::QuadraticModel(const Params& params, Context& context)
    : init_scale_(params.real("init_scale")), dim_(context.data.dim) {
  w_ = declare_block("w", 1, dim_, true);
  q_ = declare_block("q", 1, dim_, true);
  allocate_parameters();
}

void QuadraticModel::init(Rng& rng) {
  rng.fill_normal(block(w_), init_scale_);
  rng.fill_normal(block(q_), init_scale_);
}

void QuadraticModel::forward(ConstMatRef X, MatRef out) {
  squares_ = X.array().square().matrix();
  out.noalias() = X * block(w_).transpose();
  out.noalias() += Scalar(0.5) * squares_ * block(q_).transpose();
}

void QuadraticModel::backward(ConstMatRef X, ConstMatRef dout, VecRef grad) {
  // Each block's 1×D view of the gradient, transposed to the D×1 the products give.
  grad_block(grad, w_).transpose().noalias() = X.transpose() * dout.col(0);
  grad_block(grad, q_).transpose().noalias() = Scalar(0.5) * squares_.transpose() * dout.col(0);
}

void QuadraticModel::input_gradient(ConstMatRef X, ConstMatRef dout, MatRef dX) {
  // ∂f/∂x_j = w_j + q_j x_j, per sample, scaled by its dout.
  dX.array() = (X.array().rowwise() * block(q_).row(0).array()).rowwise() + block(w_).row(0).array();
  dX.array().colwise() *= dout.col(0).array();
}

}  // namespace margins_pack
