// Batched forward/backward: Z = XWᵀ − b (a GEMM per half), H = ReLU(Z), g = pairwise Σ a_i h_i;
// dL/dZ = (dout a) ⊙ 1[Z > 0] (written over Z), ∇W = (dL/dZ)ᵀ X (a GEMM per half), ∇a = doutᵀ H.
#include "symmetric_relu_two_layer.hpp"

#include <featurelab/error.hpp>

#include <algorithm>

namespace featurelab::feature_emergence_pack {

Schema SymmetricReluTwoLayer::schema() {
  Schema s;
  s.integer("width", 400, "hidden units 4m (ch. 3's m is a quarter of it); a multiple of 4").min(4);
  s.real("init_w", 0.1, "σ_w: std of the first m neurons' weights (binary init: their magnitude)").min(0);
  s.real("init_a", 1.0, "σ_a: std of the first m readout weights").min(0);
  s.real("bias", 0.1, "b̃ >= 0: the fixed bias of the first m neurons (±b̃ for the others, Eq. 3.9; 0 = Eq. B.561)").min(0);
  s.choice("init", "gaussian", {"gaussian", "binary"},
           "first-layer draw of the first m neurons: gaussian N(0, σ_w² I) (Eq. 3.9) or binary σ_w·Unif{±1}^d (Eq. B.493)");
  return s;
}

SymmetricReluTwoLayer::SymmetricReluTwoLayer(const Params& params, Context& context)
    : width_(params.integer("width")),
      dim_(context.data.dim),
      sigma_w_(params.real("init_w")),
      sigma_a_(params.real("init_a")),
      bias_(params.real("bias")),
      binary_(params.str("init") == "binary") {
  if (width_ % 4 != 0) {
    throw Error("width must be a multiple of 4 (4m: each neuron has a negated twin and two sign-flipped copies, Eq. 3.9), got " +
                std::to_string(width_) + "; use " + std::to_string((width_ / 4 + 1) * 4));
  }
  if (context.data.classes != 2) {
    throw Error("symmetric-relu-two-layer is a binary classifier (one output, y = ±1); the data has " +
                std::to_string(context.data.classes) + " classes");
  }
  if (dim_ <= 0) throw Error("the data has no input dimension (a distribution bug)");
  W_ = declare_block("W", width_, dim_, true);
  a_ = declare_block("a", 1, width_, true);
  b_ = declare_block("b", 1, width_, false);  // fixed: Algorithm 1 never updates b
  allocate_parameters();
}

void SymmetricReluTwoLayer::init(Rng& rng) {
  const Index m = width_ / 4;
  MatMap W = block(W_);
  MatMap a = block(a_);
  MatMap b = block(b_);
  if (binary_) {
    for (Index i = 0; i < m; ++i) {
      for (Index j = 0; j < dim_; ++j) W(i, j) = static_cast<Scalar>(rng.uniform() < 0.5 ? -sigma_w_ : sigma_w_);
    }
  } else {
    rng.fill_normal(W.topRows(m), sigma_w_);
  }
  rng.fill_normal(a.leftCols(m), sigma_a_);
  b.leftCols(m).setConstant(static_cast<Scalar>(bias_));
  // m < i ≤ 2m: the negated twin (−a, −w, −b).
  W.middleRows(m, m) = -W.topRows(m);
  a.middleCols(m, m) = -a.leftCols(m);
  b.middleCols(m, m) = -b.leftCols(m);
  // 2m < i ≤ 4m: the same neurons with the readout flipped.
  W.bottomRows(2 * m) = W.topRows(2 * m);
  a.rightCols(2 * m) = -a.leftCols(2 * m);
  b.rightCols(2 * m) = b.leftCols(2 * m);
}

void SymmetricReluTwoLayer::preactivations(ConstMatRef X, Mat& Z) const {
  const Index half = width_ / 2;
  const ConstMatMap W = block(W_);
  // Two GEMMs of the same shape, one per half: neuron i and its copy i + 2m then go through the same
  // kernel path and get bitwise-equal pre-activations (one 4m-wide GEMM may round a column differently
  // depending on where it sits).
  Z.resize(X.rows(), width_);
  Z.leftCols(half).noalias() = X * W.topRows(half).transpose();
  Z.rightCols(half).noalias() = X * W.bottomRows(half).transpose();
  Z.rowwise() -= block(b_).row(0);
}

void SymmetricReluTwoLayer::forward(ConstMatRef X, MatRef out) {
  const Index half = width_ / 2, n = X.rows();
  preactivations(X, Z_);
  holds_preactivations_ = true;
  H_ = Z_.cwiseMax(Scalar(0));
  // Every product a_i h_i rounded and stored first, then neuron i added to neuron i + 2m: at init the
  // two are exact negatives, so each pair, and g, is exactly 0. (Fusing h a + h′ a′ into one
  // expression lets the compiler contract it to fma(h, a, h′a′) = h a − round(h a) ≠ 0.) The products a block
  // of rows at a time (each row's sum is its own, so the bits are the whole batch's): uniform-parity's first
  // step has 2·10⁶ samples, where a whole n×4m buffer more is 4 GB.
  const Index rows = std::min(n, kProductRows);
  P_.resize(rows, width_);
  for (Index begin = 0; begin < n; begin += rows) {
    const Index count = std::min(rows, n - begin);
    auto P = P_.topRows(count);
    P.array() = H_.middleRows(begin, count).array().rowwise() * cblock(a_).row(0).array();
    out.col(0).segment(begin, count) = (P.leftCols(half) + P.rightCols(half)).rowwise().sum();
  }
}

void SymmetricReluTwoLayer::gradient_in_place(ConstMatRef dout) {
  // dL/dZ = (dout aᵀ) ⊙ 1[Z > 0] where Z was, row by row (Z is not read again before the next forward): each entry
  // the one rounded product dout_r a_i of the outer product, times 1 or 0, so the bits of a separate n×4m buffer.
  const auto a = cblock(a_).row(0).array();
  for (Index r = 0; r < Z_.rows(); ++r) {
    Z_.row(r).array() = (dout(r, 0) * a) * (Z_.row(r).array() > Scalar(0)).cast<Scalar>();
  }
  holds_preactivations_ = false;
}

void SymmetricReluTwoLayer::backward(ConstMatRef X, ConstMatRef dout, VecRef grad) {
  MatMap gW = grad_block(grad, W_);
  MatMap ga = grad_block(grad, a_);
  ga.noalias() = dout.transpose() * H_;
  if (!holds_preactivations_) preactivations(X, Z_);  // a second backward after one forward: Z again, the same bits
  gradient_in_place(dout);
  // Per half, as in forward: at init the two halves' gradients are then exactly opposite.
  const Index half = width_ / 2;
  gW.topRows(half).noalias() = Z_.leftCols(half).transpose() * X;
  gW.bottomRows(half).noalias() = Z_.rightCols(half).transpose() * X;
}

void SymmetricReluTwoLayer::input_gradient(ConstMatRef X, ConstMatRef dout, MatRef dX) {
  preactivations(X, Z_);
  gradient_in_place(dout);
  dX.noalias() = Z_ * block(W_);
}

std::vector<HookSpec> SymmetricReluTwoLayer::hook_points() const {
  return {{"hidden.pre", "n×4m", "pre-activations XWᵀ − b"}, {"hidden.post", "n×4m", "activations ReLU(XWᵀ − b)"}};
}

void SymmetricReluTwoLayer::hook(const std::string& name, ConstMatRef X, Mat& out) {
  if (name != "hidden.pre" && name != "hidden.post") Model::hook(name, X, out);
  preactivations(X, out);
  if (name == "hidden.post") out = out.cwiseMax(Scalar(0));
}

}  // namespace featurelab::feature_emergence_pack
