// Forward Z = XUᵀ, Z^{k−1} and H = Z^k (repeated products), f = HW; backward ∇W = HᵀD, dZ = (DWᵀ) ⊙ kZ^{k−1},
// ∇U = dZᵀX. On one-hot X both products with X are gathers and scatters, a row at a time (header). Buffers are the
// model's, reused while the batch size is unchanged.
#include "poly_one_hidden_layer.hpp"
#include "fourier_construction.hpp"
#include "one_hot_rows.hpp"

#include <featurelab/error.hpp>
#include <featurelab/threads.hpp>

#include <algorithm>
#include <array>
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

bool PolyOneHiddenLayer::read_one_hot(ConstMatRef X) {
  // Full-batch training passes the same X every step: compared with the last one read (a vectorised pass), it is not
  // read again (reading it was 9 % of the step at k = 5). Otherwise without a branch per value (the one's place is
  // random: a branch per value mispredicted once a block).
  if (X.rows() == read_.rows() && X.cols() == read_.cols() && X == read_) return read_one_hot_;
  read_ = X;
  read_one_hot_ = read_rows(X);
  return read_one_hot_;
}

bool PolyOneHiddenLayer::read_rows(ConstMatRef X) {
  const Index n = X.rows();
  hot_.resize(static_cast<std::size_t>(n * k_));
  bool one_hot = true;
  for (Index r = 0; r < n; ++r) {
    const Scalar* x = X.row(r).data();
    for (int j = 0; j < k_; ++j, x += p_) {
      Index ones = 0, other = 0, hot = 0;
      for (Index c = 0; c < p_; ++c) {
        const bool one = x[c] == Scalar(1);
        ones += one;
        other += !one && x[c] != Scalar(0);
        hot += one ? c : 0;
      }
      one_hot &= ones == 1 && other == 0;
      hot_[static_cast<std::size_t>(r * k_ + j)] = Index(j) * p_ + hot;
    }
    if (!one_hot) return false;
  }
  return true;
}

void PolyOneHiddenLayer::transpose_blocks() {
  const Index stride = one_hot_rows::row_stride(width_);
  Ut_.resize(Index(k_) * p_, stride);
  Wt_.resize(p_, stride);
  Ut_.leftCols(width_) = block(U_).transpose();
  Wt_.leftCols(width_) = block(W_).transpose();
}

void PolyOneHiddenLayer::forward(ConstMatRef X, MatRef out) {
  one_hot_ = read_one_hot(X);
  if (!one_hot_) {
    preactivations(X);
    out.noalias() = H_ * block(W_);
    return;
  }
  transpose_blocks();
  rows_.resize(parallel_chunks, width_);
  const auto row = one_hot_rows::forward_for(k_);
  parallel_over_chunks(X.rows(), [&](Index chunk, Index begin, Index end) {
    std::array<const Scalar*, 8> u{};
    auto h = rows_.row(chunk);
    for (Index r = begin; r < end; ++r) {
      for (int j = 0; j < k_; ++j) u[j] = Ut_.row(hot_[static_cast<std::size_t>(r * k_ + j)]).data();
      row(u.data(), width_, h.data());
      for (Index c = 0; c < p_; ++c) out(r, c) = h.dot(Wt_.row(c).head(width_));  // f[c] = Σ_i h_i w_i[c]
    }
  }, X.rows() * width_ * (k_ + p_));
}

void PolyOneHiddenLayer::backward(ConstMatRef X, ConstMatRef dout, VecRef grad) {
  MatMap gU = grad_block(grad, U_);
  MatMap gW = grad_block(grad, W_);
  if (hot_.size() != static_cast<std::size_t>(X.rows() * k_)) {  // not after a forward of this batch: read X here
    one_hot_ = read_one_hot(X);
    if (!one_hot_) preactivations(X);
  }
  if (one_hot_) {  // forward's reading of the same X (model.hpp: backward follows forward)
    // Row r: dz = k z^{k−1} ⊙ Σ_c D[r,c] w[c] is added to ∇Uᵀ's k rows hot_ and D[r,c] z^k to ∇Wᵀ's row c; each
    // chunk sums its rows into its own partial sums, added in chunk order (threads.hpp: the same bits on any number
    // of threads).
    transpose_blocks();
    const Index kp = Index(k_) * p_;
    const Index stride = Ut_.cols();
    gUt_.setZero(parallel_chunks * kp, stride);
    gWt_.setZero(parallel_chunks * p_, stride);
    const auto rows = one_hot_rows::backward_for(k_);
    parallel_over_chunks(X.rows(), [&](Index chunk, Index begin, Index end) {
      if (begin == end) return;
      rows(Ut_.data(), Wt_.data(), width_, stride, p_, &hot_[static_cast<std::size_t>(begin * k_)],
           dout.row(begin).data(), dout.outerStride(), end - begin, gUt_.row(chunk * kp).data(),
           gWt_.row(chunk * p_).data());
    }, X.rows() * width_ * (2 * k_ + 2 * p_));
    for (Index chunk = 1; chunk < parallel_chunks; ++chunk) {
      gUt_.topRows(kp) += gUt_.middleRows(chunk * kp, kp);
      gWt_.topRows(p_) += gWt_.middleRows(chunk * p_, p_);
    }
    gU = gUt_.topLeftCorner(kp, width_).transpose();
    gW = gWt_.topLeftCorner(p_, width_).transpose();
    return;
  }
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
