// Forward and backward as batched products: Z = XWᵀ + b, H = σ_s(Z), g = H aᵀ; through input codes where the data
// has them.
#include "truncated_two_layer.hpp"

#include "coded_products.hpp"
#include "truncated_activation.hpp"

#include <featurelab/error.hpp>
#include <featurelab/parallel_product.hpp>

namespace featurelab::feature_emergence_pack {

Schema TruncatedTwoLayer::schema() {
  Schema s;
  declare_network_schema(s);
  return s;
}

TruncatedTwoLayer::TruncatedTwoLayer(const Params& params, Context& context)
    : width_(params.integer("width")),
      dim_(context.data.dim),
      sigma_w_(params.real("init_w")),
      sigma_b_(params.real("init_b")),
      sigma_a_(params.real("init_a")),
      smoothing_(params.real("smoothing")) {
  if (width_ % 2 != 0) throw Error("width must be even (2m: each neuron has a mirrored twin), got " + std::to_string(width_));
  if (context.data.classes != 2) throw Error("truncated-two-layer is a binary classifier (one output); the data has " + std::to_string(context.data.classes) + " classes");
  W_ = declare_block("W", width_, dim_, true);
  b_ = declare_block("b", 1, width_, true);
  a_ = declare_block("a", 1, width_, true);
  allocate_parameters();
}

void TruncatedTwoLayer::init(Rng& rng) {
  symmetric_init(rng, sigma_w_, sigma_b_, sigma_a_, block(W_), block(b_), block(a_));
}

void TruncatedTwoLayer::tune(const std::string& setting, double value) {
  if (setting != "smoothing") throw Error("truncated-two-layer has no setting '" + setting + "' (it has: smoothing)");
  if (!(value >= 0)) throw Error("smoothing must be >= 0, got " + std::to_string(value));
  smoothing_ = value;
}

void TruncatedTwoLayer::forward(ConstMatRef X, MatRef out) {
  MatMap Z = Z_.take(X.rows(), width_);
  parallel_product_rows(Z, X, block(W_).transpose());
  finish_forward(out);
}

bool TruncatedTwoLayer::forward_coded(const Batch& batch, MatRef out) {
  if (!batch.codes_pay()) return false;
  coded_preactivations(Z_.take(batch.n, width_), batch, block(W_), codes_by_w_);
  finish_forward(out);
  return true;
}

void TruncatedTwoLayer::finish_forward(MatRef out) {
  MatMap Z = Z_.view();
  MatMap H = H_.take(Z.rows(), width_), dH = dH_.take(Z.rows(), width_);
  Z.rowwise() += block(b_).row(0);
  truncated_relu(Z, smoothing_, H, dH);
  out.noalias() = H * block(a_).transpose();
}

void TruncatedTwoLayer::output_gradients(ConstMatRef dout, VecRef grad) {
  MatMap ga = grad_block(grad, a_);
  MatMap dH = dH_.view();
  ga.noalias() = dout.transpose() * H_.view();
  dH.array() *= (dout * block(a_)).array();  // dL/dZ = dout a ⊙ σ_s′(Z), in place
  grad_block(grad, b_) = dH.colwise().sum();
}

void TruncatedTwoLayer::backward(ConstMatRef X, ConstMatRef dout, VecRef grad) {
  output_gradients(dout, grad);
  MatMap gW = grad_block(grad, W_);
  parallel_product_cols(gW, dH_.view().transpose(), X);
}

bool TruncatedTwoLayer::backward_coded(const Batch& batch, ConstMatRef dout, VecRef grad) {
  if (!batch.codes_pay()) return false;
  output_gradients(dout, grad);
  coded_weight_gradient(grad_block(grad, W_), dH_.view(), batch, grad_by_codes_);
  return true;
}

void TruncatedTwoLayer::input_gradient(ConstMatRef X, ConstMatRef dout, MatRef dX) {
  Mat out(X.rows(), 1);
  forward(X, out);
  MatMap dH = dH_.view();
  dH.array() *= (dout * block(a_)).array();
  dX.noalias() = dH * block(W_);
}

std::vector<HookSpec> TruncatedTwoLayer::hook_points() const {
  return {{"hidden.pre", "n×2m", "pre-activations XWᵀ + b"}, {"hidden.post", "n×2m", "activations σ_s(XWᵀ + b)"}};
}

void TruncatedTwoLayer::hook(const std::string& name, ConstMatRef X, Mat& out) {
  if (name != "hidden.pre" && name != "hidden.post") Model::hook(name, X, out);
  Mat Z = X * block(W_).transpose();
  Z.rowwise() += block(b_).row(0);
  if (name == "hidden.pre") {
    out = std::move(Z);
    return;
  }
  out.resize(Z.rows(), Z.cols());
  Mat dH(Z.rows(), Z.cols());
  truncated_relu(Z, smoothing_, out, dH);
}

}  // namespace featurelab::feature_emergence_pack
