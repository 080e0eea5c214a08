// Forward Z = XUᵀ, H = Z^k (repeated products), f = HW; backward ∇W = HᵀD, dZ = (DWᵀ) ⊙ kZ^{k−1},
// ∇U = dZᵀX. Buffers are the model's, reused while the batch size is unchanged.
#include "poly_one_hidden_layer.hpp"
#include "fourier_construction.hpp"

#include <featurelab/error.hpp>

#include <cmath>

namespace featurelab::fourier_icl_pack {

namespace {
// The monomial z^e elementwise, by repeated products (e is small).
void power(const Mat& Z, int e, Mat& out) {
  out.resize(Z.rows(), Z.cols());
  if (e == 0) {
    out.setOnes();
    return;
  }
  out = Z;
  for (int i = 1; i < e; ++i) out.array() *= Z.array();
}
}  // namespace

Schema PolyOneHiddenLayer::schema() {
  Schema s;
  s.integer("width", Automatic{"the theorem's 2^{2k−2}(p−1)"}, "m: neurons").min(1);
  s.real("init_scale", 0.1, "σ_init: every weight ~ N(0, σ_init²) (the chapter does not say; 0.05–0.1 work)").min(0);
  return s;
}

PolyOneHiddenLayer::PolyOneHiddenLayer(const Params& params, Context& context)
    : k_(0), p_(context.data.classes), width_(0), init_scale_(params.real("init_scale")) {
  if (p_ < 2 || context.data.dim % p_ != 0) {
    throw Error(context.name + " reads k one-hot blocks of p = classes inputs each (the modular-sum distribution); the data "
                "has " + std::to_string(context.data.dim) + " inputs and " + std::to_string(context.data.classes) + " classes");
  }
  k_ = static_cast<int>(context.data.dim / p_);
  if (k_ > 8) throw Error(context.name + ": k = " + std::to_string(k_) + " summands; the activation z^k is meant for k <= 8");
  width_ = params.integer_or_auto("width").value_or(theorem_width(k_, p_));
  U_ = declare_block("U", width_, static_cast<Index>(k_) * p_, true);
  W_ = declare_block("W", width_, p_, true);
  allocate_parameters();
}

void PolyOneHiddenLayer::init(Rng& rng) { rng.fill_normal(parameters(), init_scale_); }

void PolyOneHiddenLayer::preactivations(ConstMatRef X) {
  Z_.resize(X.rows(), width_);
  Z_.noalias() = X * block(U_).transpose();
  power(Z_, k_, H_);
}

void PolyOneHiddenLayer::forward(ConstMatRef X, MatRef out) {
  preactivations(X);
  out.noalias() = H_ * block(W_);
}

void PolyOneHiddenLayer::backward(ConstMatRef X, ConstMatRef dout, VecRef grad) {
  MatMap gU = grad_block(grad, U_);
  MatMap gW = grad_block(grad, W_);
  gW.noalias() = H_.transpose() * dout;
  power(Z_, k_ - 1, dZ_);  // Z^{k−1}
  dZ_.array() *= (dout * block(W_).transpose()).array() * static_cast<Scalar>(k_);
  gU.noalias() = dZ_.transpose() * X;
}

void PolyOneHiddenLayer::input_gradient(ConstMatRef X, ConstMatRef dout, MatRef dX) {
  preactivations(X);
  power(Z_, k_ - 1, dZ_);
  dZ_.array() *= (dout * block(W_).transpose()).array() * static_cast<Scalar>(k_);
  dX.noalias() = dZ_ * block(U_);
}

std::vector<HookSpec> PolyOneHiddenLayer::hook_points() const {
  return {{"hidden.pre", "n×m", "pre-activations u_{i,1}[a_1] + … + u_{i,k}[a_k]"},
          {"hidden.post", "n×m", "activations (pre-activation)^k"}};
}

void PolyOneHiddenLayer::hook(const std::string& name, ConstMatRef X, Mat& out) {
  if (name != "hidden.pre" && name != "hidden.post") Model::hook(name, X, out);
  preactivations(X);
  out = name == "hidden.pre" ? Z_ : H_;
}

}  // namespace featurelab::fourier_icl_pack
