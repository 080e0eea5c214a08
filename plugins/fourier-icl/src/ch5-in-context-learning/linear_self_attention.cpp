// One pass over each prompt's tokens for the context average, then the prediction and the gradients as
// n×d×r products.
#include "linear_self_attention.hpp"
#include "icl_theory.hpp"
#include "prompt_tokens.hpp"

#include <featurelab/error.hpp>

namespace featurelab::fourier_icl_pack {

Schema LinearSelfAttention::schema() {
  Schema s;
  s.integer("rank", Automatic{"d"}, "r: the rank of U = ABᵀ (the model's scale)").min(1);
  s.choice("init", "gaussian", {"gaussian", "closed-form"},
           "gaussian: A, B ~ N(0, init_scale²), u = 1; closed-form: Thm. 5.4.1's rank-r optimum (needs icl-linear-regression)");
  s.real("init_scale", 0.1, "std of A and B at a gaussian init").min(0);
  return s;
}

LinearSelfAttention::LinearSelfAttention(const Params& params, Context& context)
    : init_scale_(params.real("init_scale")), init_(params.str("init")) {
  const PromptShape shape = prompt_shape(context.data, context.name);
  slots_ = shape.slots;
  d_ = shape.dim;
  rank_ = params.integer_or_auto("rank").value_or(d_);
  if (rank_ > d_) throw Error("rank = " + std::to_string(rank_) + " exceeds d = " + std::to_string(d_));
  if (init_ == "closed-form") {
    // Thm. 5.4.1's optimum is built from the data's eigenbasis, spectrum and prompt length.
    const std::string who = context.name + " (init = \"closed-form\")";
    const char* fix = "use data.use = \"icl-linear-regression\", which exposes it, or init = \"gaussian\"";
    require_feature(context.features, who, "basis", fix);
    require_feature(context.features, who, "eigenvalues", fix, 1, kAnyExtent);
    require_feature(context.features, who, "prompt", fix, 1, 3);
    features_ = *context.features;
  }
  A_ = declare_block("A", d_, rank_, true);
  B_ = declare_block("B", d_, rank_, true);
  u_ = declare_block("u", 1, 1, true);
  allocate_parameters();
}

void LinearSelfAttention::init(Rng& rng) {
  if (init_ == "gaussian") {
    rng.fill_normal(block(A_), init_scale_);
    rng.fill_normal(block(B_), init_scale_);
    block(u_)(0, 0) = 1;
    return;
  }
  IclSetting s;
  s.eigenvalues = features_.at("eigenvalues").row(0).transpose().cast<double>();
  s.context = static_cast<double>(features_.at("prompt")(0, 0));
  const VecD v = optimal_coefficients(s, static_cast<int>(rank_));
  const MatD Qr = features_.at("basis").cast<double>().transpose().leftCols(rank_);  // top-r eigenvectors
  const MatD factor = Qr * v.head(rank_).cwiseSqrt().asDiagonal();
  block(A_) = factor.cast<Scalar>();
  block(B_) = factor.cast<Scalar>();
  block(u_)(0, 0) = 1;
}

void LinearSelfAttention::summarize(ConstMatRef X) { summarize_prompts(X, {slots_, d_}, H_, Xq_); }

void LinearSelfAttention::forward(ConstMatRef X, MatRef out) {
  summarize(X);
  P_.noalias() = H_ * block(A_);
  R_.noalias() = Xq_ * block(B_);
  out.col(0) = block(u_)(0, 0) * (P_.array() * R_.array()).rowwise().sum().matrix();
}

void LinearSelfAttention::backward(ConstMatRef, ConstMatRef dout, VecRef grad) {
  const Scalar u = block(u_)(0, 0);
  MatMap gA = grad_block(grad, A_);
  MatMap gB = grad_block(grad, B_);
  gA.noalias() = H_.transpose() * (R_.array().colwise() * dout.col(0).array()).matrix() * u;
  gB.noalias() = Xq_.transpose() * (P_.array().colwise() * dout.col(0).array()).matrix() * u;
  grad_block(grad, u_)(0, 0) = (dout.col(0).array() * (P_.array() * R_.array()).rowwise().sum()).sum();
}

}  // namespace featurelab::fourier_icl_pack
