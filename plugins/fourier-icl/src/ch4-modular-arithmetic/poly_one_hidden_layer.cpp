// Forward Z = XUᵀ, Z^{k−1} and H = Z^k (repeated products), f = HW; backward ∇W = HᵀD, dZ = (DWᵀ) ⊙ kZ^{k−1},
// ∇U = dZᵀX. Buffers are the model's, reused while the batch size is unchanged.
#include "poly_one_hidden_layer.hpp"
#include "fourier_construction.hpp"

#include <featurelab/error.hpp>

#include <algorithm>
#include <cmath>

namespace featurelab::fourier_icl_pack {

namespace {
// Z^{k−1} and H = Z^k elementwise, by repeated products (k is small): Z^{k−1} = ((Z·Z)·Z)…, then Z^k = Z^{k−1}·Z,
// the products the chapter's monomial takes in this order (Z^0 = 1). A block of rows at a time, so its k − 1
// products run in the cache: done as k − 1 passes over the whole n × m matrices they were most of the step
// (3125 × 1024 at k = 5), and every value is the same product of the same factors in the same order.
void powers(const Mat& Z, int k, Mat& Zk1, Mat& H) {
  Zk1.resize(Z.rows(), Z.cols());
  H.resize(Z.rows(), Z.cols());
  const Index rows = std::max<Index>(1, 16384 / std::max<Index>(1, Z.cols()));
  for (Index r = 0; r < Z.rows(); r += rows) {
    const Index n = std::min(rows, Z.rows() - r);
    const auto z = Z.middleRows(r, n).array();
    auto zk1 = Zk1.middleRows(r, n).array();
    auto h = H.middleRows(r, n).array();
    if (k == 1) {
      zk1.setOnes();
      h = z;
      continue;
    }
    zk1 = z;
    for (int i = 2; i < k; ++i) zk1 *= z;
    h = zk1 * z;
  }
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
  powers(Z_, k_, Zk1_, H_);
}

void PolyOneHiddenLayer::forward(ConstMatRef X, MatRef out) {
  preactivations(X);
  out.noalias() = H_ * block(W_);
}

void PolyOneHiddenLayer::backward(ConstMatRef X, ConstMatRef dout, VecRef grad) {
  MatMap gU = grad_block(grad, U_);
  MatMap gW = grad_block(grad, W_);
  gW.noalias() = H_.transpose() * dout;
  dZ_.resize(Zk1_.rows(), Zk1_.cols());
  dZ_.array() = Zk1_.array() * ((dout * block(W_).transpose()).array() * static_cast<Scalar>(k_));
  gU.noalias() = dZ_.transpose() * X;
}

void PolyOneHiddenLayer::input_gradient(ConstMatRef X, ConstMatRef dout, MatRef dX) {
  preactivations(X);
  dZ_.resize(Zk1_.rows(), Zk1_.cols());
  dZ_.array() = Zk1_.array() * ((dout * block(W_).transpose()).array() * static_cast<Scalar>(k_));
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
