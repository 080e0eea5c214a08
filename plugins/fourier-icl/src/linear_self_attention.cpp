// One pass over each prompt's tokens for the context average, then the prediction and the gradients as
// n×d×r products.
#include "linear_self_attention.hpp"
#include "icl_theory.hpp"
#include "prompt_tokens.hpp"

#include <featurelab/error.hpp>

namespace fourier_icl {

using namespace featurelab;

Schema LinearSelfAttention::schema() {
  Schema s;
  s.integer("rank", 0, "r: the rank of U = ABᵀ (the model's scale); 0 = d").min(0);
  s.choice("init", "gaussian", {"gaussian", "closed-form"},
           "gaussian: A, B ~ N(0, init_scale²), u = 1; closed-form: Thm. 5.4.1's rank-r optimum (needs icl-linear-regression)");
  s.real("init_scale", 0.1, "std of A and B at a gaussian init").min(0);
  return s;
}

LinearSelfAttention::LinearSelfAttention(const Params& params, Context& context)
    : rank_(params.integer("rank")), init_scale_(params.real("init_scale")), init_(params.str("init")) {
  const PromptShape shape = prompt_shape(context.data, context.name);
  slots_ = shape.slots;
  d_ = shape.dim;
  if (rank_ == 0) rank_ = d_;
  if (rank_ > d_) throw Error("rank = " + std::to_string(rank_) + " exceeds d = " + std::to_string(d_));
  if (init_ == "closed-form") {
    if (!context.features || !context.features->count("basis") || !context.features->count("prompt")) {
      throw Error("linear-self-attention init = \"closed-form\" needs the distribution's basis, eigenvalues and prompt "
                  "length (icl-linear-regression)");
    }
    features_ = *context.features;
  }
  declare_block("A", d_, rank_, true);
  declare_block("B", d_, rank_, true);
  declare_block("u", 1, 1, true);
  allocate_parameters();
}

void LinearSelfAttention::init(Rng& rng) {
  if (init_ == "gaussian") {
    rng.fill_normal(block("A"), init_scale_);
    rng.fill_normal(block("B"), init_scale_);
    block("u")(0, 0) = 1;
    return;
  }
  IclSetting s;
  s.eigenvalues = features_.at("eigenvalues").row(0).transpose().cast<double>();
  s.context = static_cast<double>(features_.at("prompt")(0, 0));
  const VecD v = optimal_coefficients(s, static_cast<int>(rank_));
  const MatD Qr = features_.at("basis").cast<double>().transpose().leftCols(rank_);  // top-r eigenvectors
  const MatD factor = Qr * v.head(rank_).cwiseSqrt().asDiagonal();
  block("A") = factor.cast<Scalar>();
  block("B") = factor.cast<Scalar>();
  block("u")(0, 0) = 1;
}

void LinearSelfAttention::summarize(ConstMatRef X) { summarize_prompts(X, {slots_, d_}, H_, Xq_); }

void LinearSelfAttention::forward(ConstMatRef X, MatRef out) {
  summarize(X);
  P_.noalias() = H_ * block("A");
  R_.noalias() = Xq_ * block("B");
  out.col(0) = block("u")(0, 0) * (P_.array() * R_.array()).rowwise().sum().matrix();
}

void LinearSelfAttention::backward(ConstMatRef, ConstMatRef dout, VecRef grad) {
  const ParamBlock& ab = *find_block("A");
  const ParamBlock& bb = *find_block("B");
  const ParamBlock& ub = *find_block("u");
  const Scalar u = block("u")(0, 0);
  MatMap gA(grad.data() + ab.offset, ab.rows, ab.cols);
  MatMap gB(grad.data() + bb.offset, bb.rows, bb.cols);
  gA.noalias() = H_.transpose() * (R_.array().colwise() * dout.col(0).array()).matrix() * u;
  gB.noalias() = Xq_.transpose() * (P_.array().colwise() * dout.col(0).array()).matrix() * u;
  grad(ub.offset) = (dout.col(0).array() * (P_.array() * R_.array()).rowwise().sum()).sum();
}

}  // namespace fourier_icl
