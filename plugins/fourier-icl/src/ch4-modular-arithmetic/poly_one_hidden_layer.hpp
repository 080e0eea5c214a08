// Model `poly-one-hidden-layer` (Shi 2024 ch. 4, Eq. 4.2): the k-input modular-addition network
//     f(θ, a)[c] = Σ_{i=1}^{m} (u_{i,1}[a_1] + … + u_{i,k}[a_k])^k · w_i[c],   c ∈ Z_p,
// activation z ↦ z^k with k the number of inputs, no bias, the whole output vector w_i ∈ R^p per neuron; the
// network is (k+1)-homogeneous. On one-hot inputs x = (e_{a_1}, …, e_{a_k}) ∈ R^{kp} the pre-activation is
// ⟨U_i, x⟩ with U_i = (u_{i,1}, …, u_{i,k}), so the forward pass is two GEMMs:
//     Z = X Uᵀ (n×m),  H = Z^k,  f = H W (n×p).
// Blocks U (m×kp) and W (m×p), both trained; init N(0, init_scale²) (the chapter does not say; 0.05–0.1 works,
// 0.3 memorises). k = inputs/classes from the data; width auto = the theorem's 2^{2k−2}(p−1).
// On one-hot rows (the modular-sum distribution's) the products with X are gathers and scatters: row n of Z is the
// sum of k rows of Uᵀ and ∇Uᵀ's rows are sums of dZ's rows, k·m adds a row instead of 2·kp·m flops; the step runs
// row by row in the cache (forward: z, z^{k−1}, z^k, f; backward: the same again, then dZ, ∇U and ∇W), with no
// n×m matrix kept between the two. Other inputs take the products.
#pragma once

#include "common/contract_setups.hpp"

#include <featurelab/model.hpp>

#include <vector>

namespace featurelab::fourier_icl_pack {

class PolyOneHiddenLayer : public featurelab::Model {
 public:
  static constexpr featurelab::Doc kDoc =
      "f(a)[c] = Σ_i (u_{i,1}[a_1] + … + u_{i,k}[a_k])^k w_i[c] on one-hot inputs (Shi 2024 Eq. 4.2): activation z^k, "
      "no bias, blocks U (m×kp) and W (m×p); width auto = 2^{2k−2}(p−1).";
  static featurelab::Schema schema();
  static featurelab::ContractData contract_data() { return modular_mlp_contract(); }
  PolyOneHiddenLayer(const featurelab::Params& params, featurelab::Context& context);
  featurelab::Index outputs() const override { return p_; }
  void init(featurelab::Rng& rng) override;
  void forward(featurelab::ConstMatRef X, featurelab::MatRef out) override;
  void backward(featurelab::ConstMatRef X, featurelab::ConstMatRef dout, featurelab::VecRef grad) override;
  void input_gradient(featurelab::ConstMatRef X, featurelab::ConstMatRef dout, featurelab::MatRef dX) override;
  std::vector<featurelab::HookSpec> hook_points() const override;
  void hook(const std::string& name, featurelab::ConstMatRef X, featurelab::Mat& out) override;

  int k() const { return k_; }
  int p() const { return p_; }

 protected:
  featurelab::BlockHandle U_, W_;
  int k_, p_;
  featurelab::Index width_;
  double init_scale_;

 private:
  void preactivations(featurelab::ConstMatRef X);  // Z_, Zk1_ = Z_^{k−1} and H_ = Z_^k
  bool read_one_hot(featurelab::ConstMatRef X);    // hot_ from X, or false where a row is not k one-hot blocks
  bool read_rows(featurelab::ConstMatRef X);       // read_one_hot's reading, every row
  void transpose_blocks();                         // Ut_ = Uᵀ, Wt_ = Wᵀ
  featurelab::Mat Z_, Zk1_, H_, dZ_;
  bool one_hot_ = false;                // whether forward's X was one-hot (then hot_ is its reading)
  std::vector<featurelab::Index> hot_;
  featurelab::Mat read_;                 // the X hot_ was read from, and whether it was one-hot
  bool read_one_hot_ = false;  // n×k: row n's one in block j is column hot_[n k + j] of X (= j p + a_j)
  featurelab::Mat Ut_, Wt_;             // Uᵀ (kp×m) and Wᵀ (p×m), rows padded to one_hot_rows::row_stride(m)
  featurelab::Mat rows_, gUt_, gWt_;    // per chunk: a row of m (z^k); ∇Uᵀ and ∇Wᵀ partial sums, rows padded too
};

}  // namespace featurelab::fourier_icl_pack
