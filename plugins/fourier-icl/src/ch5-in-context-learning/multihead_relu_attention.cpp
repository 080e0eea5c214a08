// Scores for all heads from one GEMM H·[W^(1) … W^(m)] (n×d × d×md) and a row-wise reduction against x_q;
// gradients per head as d×n×d products.
#include "multihead_relu_attention.hpp"

#include <featurelab/error.hpp>

#include <cmath>

namespace featurelab::fourier_icl_pack {

void parity_construction(int d, int bits, double v, double gamma, MatD& diagonals, VecD& a) {
  const int m = 2 * (bits + 1);
  diagonals.setZero(d, m);
  a.resize(m);
  for (int b = 0; b < bits; ++b) {
    for (int t = 0; t < d; ++t) diagonals(t, b) = (2.0 * ((t >> b) & 1) - 1) / (4 * gamma);
    a(b) = -1;
  }
  diagonals.col(bits).setConstant(-v / (4 * gamma));
  a(bits) = 1;
  diagonals.rightCols(bits + 1) = -diagonals.leftCols(bits + 1);
  a.tail(bits + 1) = a.head(bits + 1);
}

void graded_construction(int d, double gamma, MatD& diagonals, VecD& a) {
  // One graded head V_tt = c_t/(2γ), c_t = t − (d − 1)/2 for t = 0 … d − 1 (distinct, spacing 1), a = −1, and the
  // positive head of scale v = d − 1; with the mirrors g = −|c_i φ_i + c_j φ_j| + (d − 1)/2 · |φ_i + φ_j| on task
  // (i, j), so y g = |c_i − c_j| ≥ 1 when φ_i = −φ_j and y g = d − 1 − |c_i + c_j| ≥ 1 otherwise: every task covered.
  diagonals.setZero(d, 4);
  a.resize(4);
  for (int t = 0; t < d; ++t) diagonals(t, 0) = (t - (d - 1) / 2.0) / (2 * gamma);
  a(0) = -1;
  diagonals.col(1).setConstant(-(d - 1) / (4 * gamma));
  a(1) = 1;
  diagonals.rightCols(2) = -diagonals.leftCols(2);
  a.tail(2) = a.head(2);
}

Schema MultiheadReluAttention::schema() {
  Schema s;
  s.integer("heads", 8, "m: heads (gaussian init; the constructions fix their own)").min(1);
  s.choice("init", "gaussian", {"gaussian", "small", "large", "graded"},
           "gaussian; small = g_1* (2(log2 k + 1) heads); large = g_2* (2(log2 d + 1) heads) of Thm. 5.5.1; graded = "
           "4 heads that cover every task");
  s.real("init_scale", 1.0, "std of W at a gaussian init").min(0);
  return s;
}

MultiheadReluAttention::MultiheadReluAttention(const Params& params, Context& context)
    : shape_(prompt_shape(context.data, context.name)),
      heads_(params.integer("heads")),
      init_(params.str("init")),
      init_scale_(params.real("init_scale")) {
  if (init_ != "gaussian") {
    const std::string who = context.name + " (init = \"" + init_ + "\")";
    const char* fix = "use data.use = \"icl-sparse-parity\", which exposes it, or init = \"gaussian\"";
    const Mat& setting = require_feature(context.features, who, "setting", fix, 1, 4);
    const auto d = static_cast<int>(setting(0, 0)), k = static_cast<int>(setting(0, 1));
    gamma_ = setting(0, 2);
    v2_ = static_cast<int>(std::lround(std::log2(d)));
    v1_ = static_cast<int>(std::lround(std::log2(k)));
    G_ = require_feature(context.features, who, "dictionary", fix).cast<double>().transpose();  // columns: features
    heads_ = init_ == "graded" ? 4 : 2 * ((init_ == "small" ? v1_ : v2_) + 1);
  }
  W_ = declare_block("W", heads_, shape_.dim * shape_.dim, true);  // row i: W^(i), d×d row-major
  a_ = declare_block("a", 1, heads_, true);
  allocate_parameters();
}

void MultiheadReluAttention::init(Rng& rng) {
  const Index d = shape_.dim;
  if (init_ == "gaussian") {
    rng.fill_normal(block(W_), init_scale_);
    for (Index i = 0; i < heads_; ++i) block(a_)(0, i) = i % 2 == 0 ? 1 : -1;
    return;
  }
  MatD diagonals;
  VecD a;
  if (init_ == "graded") {
    graded_construction(static_cast<int>(d), gamma_, diagonals, a);
  } else {
    const int bits = init_ == "small" ? v1_ : v2_;
    parity_construction(static_cast<int>(d), bits, bits, gamma_, diagonals, a);
  }
  for (Index i = 0; i < heads_; ++i) {
    const MatD W = G_ * diagonals.col(i).asDiagonal() * G_.transpose();  // W^(i) = G V^(i) Gᵀ
    for (Index r = 0; r < d; ++r) block(W_).row(i).segment(r * d, d) = W.row(r).cast<Scalar>();
  }
  block(a_) = a.transpose().cast<Scalar>();
}

void MultiheadReluAttention::forward(ConstMatRef X, MatRef out) {
  const Index n = X.rows(), d = shape_.dim;
  summarize_prompts(X, shape_, H_, Xq_);
  // T[:, i·d + c] = Σ_r h_r W^(i)_{rc}: W reshaped d×(m·d) with head i's columns i·d … i·d + d − 1.
  T_.resize(n, heads_ * d);
  const ConstMatMap W = cblock(W_);
  for (Index i = 0; i < heads_; ++i) {
    const Eigen::Map<const Eigen::Matrix<Scalar, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>> Wi(W.row(i).data(), d, d);
    T_.middleCols(i * d, d).noalias() = H_ * Wi;
  }
  S_.resize(n, heads_);
  for (Index i = 0; i < heads_; ++i) S_.col(i) = (T_.middleCols(i * d, d).array() * Xq_.array()).rowwise().sum().matrix();
  out.col(0) = S_.cwiseMax(Scalar(0)) * block(a_).row(0).transpose();
}

void MultiheadReluAttention::backward(ConstMatRef, ConstMatRef dout, VecRef grad) {
  const Index d = shape_.dim;
  MatMap gW = grad_block(grad, W_);
  grad_block(grad, a_).noalias() = dout.transpose() * S_.cwiseMax(Scalar(0));
  for (Index i = 0; i < heads_; ++i) {
    // ∂g/∂W^(i) = Σ_n dout_n a_i 1[s_i > 0] h_n x_qnᵀ
    gate_ = (dout.col(0).array() * (S_.col(i).array() > Scalar(0)).cast<Scalar>()).matrix() * block(a_)(0, i);
    MatMap gWi(gW.row(i).data(), d, d);
    gWi.noalias() = H_.transpose() * gate_.asDiagonal() * Xq_;
  }
}

}  // namespace featurelab::fourier_icl_pack
