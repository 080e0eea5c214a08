// Model `symmetric-relu-layer` (Wen & Li §2.2, App. A.1): the contrastive learner, one layer of m
// symmetrised-ReLU neurons and no output layer — the representation IS the hidden layer:
//     f(x) = (h_1(x), …, h_m(x)),   h_i(x) = ReLU(⟨w_i, x⟩ − b_i) − ReLU(−⟨w_i, x⟩ − b_i).
// For b_i >= 0 this is the soft threshold sign(a)·max(|a| − b_i, 0) of a = ⟨w_i, x⟩; b_i = 0 makes the network
// linear; b_i < 0 (reachable only with trained biases) gives 2a on |a| < |b|, a − b·sign(a) outside. The two-ReLU
// formula is implemented as written, for every sign of b.
//   ∂h_i/∂w_i = (1[a > b] + 1[−a > b])·x,   ∂h_i/∂b_i = −1[a > b] + 1[−a > b].
// Init: w_i ~ N(0, σ_0² I) with σ_0 = init_norm/√d1 (so ‖w_i⁽⁰⁾‖ ≈ init_norm; our default σ_0 = 1/(d√d1) is
// init_norm = 1/d), b = 0. Blocks W (m×d1, trainable) and b (1×m, trainable only with train_bias = true: the
// paper sets it by a schedule, which the contrastive-sgd trainer runs).
#pragma once

#include "contract_setups.hpp"

#include <featurelab/model.hpp>

namespace featurelab::contrastive_decoupling_pack {

class SymmetricReluLayer : public featurelab::Model {
 public:
  static constexpr featurelab::Doc kDoc =
      "f(x)_i = ReLU(<w_i,x> − b_i) − ReLU(−<w_i,x> − b_i), m neurons, no output layer (Wen & Li §2.2); W ~ N(0, "
      "init_norm²/d1), b = 0, b trainable only with train_bias.";
  static featurelab::Schema schema();
  static std::map<std::string, featurelab::Value> test_params() { return {{"width", std::int64_t(8)}}; }
  static featurelab::ContractData contract_data() { return sparse_coding_contract(); }
  SymmetricReluLayer(const featurelab::Params& params, featurelab::Context& context);
  featurelab::Index outputs() const override { return width_; }
  void init(featurelab::Rng& rng) override;
  void forward(featurelab::ConstMatRef X, featurelab::MatRef out) override;
  void backward(featurelab::ConstMatRef X, featurelab::ConstMatRef dout, featurelab::VecRef grad) override;
  void input_gradient(featurelab::ConstMatRef X, featurelab::ConstMatRef dout, featurelab::MatRef dX) override;
  std::vector<featurelab::HookSpec> hook_points() const override;
  void hook(const std::string& name, featurelab::ConstMatRef X, featurelab::Mat& out) override;

 private:
  // A = XWᵀ (n×m), resized here.
  void pre_activations(featurelab::ConstMatRef X, featurelab::Mat& A);
  // dW (m×d1) = dA_ᵀ X.
  void weight_gradient(featurelab::ConstMatRef X, featurelab::MatRef dW);

  featurelab::BlockHandle W_, b_;
  featurelab::Index width_, dim_;
  double init_norm_;
  featurelab::Mat A_;   // pre-activations ⟨w_i, x⟩ of the last forward (n×m)
  featurelab::Mat dA_;  // dL/dA (reused)
  featurelab::Mat Wt_;  // Wᵀ (d1×m) for the forward product's tiles
  featurelab::Mat dWt_; // ∇Wᵀ (d1×m) as the gradient's tiles sum it
};

// The symmetric ReLU of one pre-activation a with bias b (the two-ReLU formula).
inline featurelab::Scalar symmetric_relu(featurelab::Scalar a, featurelab::Scalar b) {
  const featurelab::Scalar zero(0);
  return (a - b > zero ? a - b : zero) - (-a - b > zero ? -a - b : zero);
}

}  // namespace featurelab::contrastive_decoupling_pack
