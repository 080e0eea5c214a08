// Linear model: one GEMM each way.
#include "linear_model.hpp"

#include <featurelab/error.hpp>

namespace featurelab::std_pack {

Schema LinearModel::schema() {
  Schema s;
  s.boolean("bias", true, "include the bias b");
  s.integer("outputs", Automatic{"1 for two classes (binary, ±1 labels), else one per class"}, "outputs K").min(1);
  s.real("init_scale", 0.0, "std of the initial weights; 0 = start from zero").min(0);
  return s;
}

LinearModel::LinearModel(const Params& params, Context& context)
    : bias_(params.boolean("bias")), init_scale_(params.real("init_scale")) {
  const auto requested = params.integer_or_auto("outputs");
  outputs_ = requested ? *requested : (context.data.classes == 2 ? 1 : std::max(1, context.data.classes));
  if (context.data.dim <= 0) throw Error("the data has no input dimension (a distribution bug)");
  W_ = declare_block("W", outputs_, context.data.dim, true);
  if (bias_) b_ = declare_block("b", 1, outputs_, true);
  allocate_parameters();
}

void LinearModel::init(Rng& rng) {
  if (init_scale_ > 0) {
    rng.fill_normal(block(W_), init_scale_);
  } else {
    block(W_).setZero();
  }
  if (bias_) block(b_).setZero();
}

void LinearModel::forward(ConstMatRef X, MatRef out) {
  out.noalias() = X * block(W_).transpose();
  if (bias_) out.rowwise() += block(b_).row(0);
}

void LinearModel::backward(ConstMatRef X, ConstMatRef dout, VecRef grad) {
  grad_block(grad, W_).noalias() = dout.transpose() * X;
  if (bias_) grad_block(grad, b_) = dout.colwise().sum();
}

void LinearModel::input_gradient(ConstMatRef, ConstMatRef dout, MatRef dX) {
  dX.noalias() = dout * block(W_);
}

}  // namespace featurelab::std_pack
