// Model `symmetric-relu-two-layer` (Shi 2024 ch. 3, Eq. 3.1 and 3.9): the network of the gradient
// feature learning framework,
//     g(x) = Σ_{i=1}^{4m} a_i ReLU(⟨w_i, x⟩ − b_i),
// a plain ReLU (not ch. 2's truncated one) with the bias SUBTRACTED and FIXED: Algorithm 1 updates
// only a and W, so b is declared as a non-trainable block and the existing trainers (phased-gd,
// standard) and optimizers never touch it. Blocks: W (4m×d) and a (1×4m) trainable, b (1×4m) frozen.
//
// Symmetric init (Eq. 3.9), the reason for width 4m:
//     i ≤ m        a_i ~ N(0, σ_a²),  w_i ~ N(0, σ_w² I),  b_i = b̃ > 0
//     m < i ≤ 2m   a_i = −a_{i−m},    w_i = −w_{i−m},     b_i = −b_{i−m}
//     2m < i ≤ 4m  a_i = −a_{i−2m},   w_i =  w_{i−2m},    b_i =  b_{i−2m}
// Neurons i and i+2m compute the same ReLU with opposite readouts, so g ≡ 0 at init and ℓ′(y g) =
// ℓ′(0) for every sample in the first step: then ∇_{w_i} L = ℓ′(0) a_i G(w_i, b_i) with the
// simplified gradient G(w, b) = E[y x 1[wᵀx > b]] (Def. 3.5), and a step with λ1 = 1/η1 gives
// w_i^(1) = −η1 ℓ′(0) a_i^(0) G(w_i^(0), b_i) (Lemma B.5). The first 2m neurons carry both bias signs
// s = ±1 of the gradient features (Def. 3.7). init = "binary" draws w ~ σ_w·Unif{±1}^d (Eq. B.493,
// the uniform-parity variant, has σ_w = 1) with the same 4m mirroring. b̃ = 0 is the init of Eq. B.561
// (App. B.5.7, Algorithm 7): every neuron is then homogeneous and g ≡ 0 still holds; Algorithm 7 redraws
// b after its first step (phased-gd's phase_redraw_b).
//
// Exactness of g ≡ 0 (not ~1e-6) needs care in float: the products a_i h_i are rounded and stored, then
// summed pairwise, out = Σ_{i ≤ 2m} (a_i h_i + a_{i+2m} h_{i+2m}), so the pairs cancel bitwise at init
// (one GEMV, or one fused expression that the compiler contracts to an FMA, leaves ~1e-6); and the
// pre-activations and the weight gradient are two whole-batch GEMMs of equal shape, one per half, so
// neuron i and its copy i + 2m are computed by the same kernel path (bitwise-equal Z; bitwise-opposite
// first-step gradients). Every buffer is owned by the model and reused while the batch size is unchanged; two n×4m
// buffers (Z, then dL/dZ in its place, and H) are all a step holds, 8 GB at uniform-parity's first step of 2·10⁶ samples.
#pragma once

#include <featurelab/model.hpp>

namespace featurelab::feature_emergence_pack {

class SymmetricReluTwoLayer : public featurelab::Model {
 public:
  static constexpr featurelab::Doc kDoc =
      "g(x) = Σ_{i≤4m} a_i ReLU(<w_i,x> − b_i), b fixed (not trained), symmetric 4m init of Eq. 3.9 (g ≡ 0 exactly): "
      "the network of Shi 2024 ch. 3's gradient feature framework; init gaussian or binary (Eq. B.493).";
  static featurelab::Schema schema();
  static std::map<std::string, featurelab::Value> test_params() { return {{"width", std::int64_t(8)}}; }
  SymmetricReluTwoLayer(const featurelab::Params& params, featurelab::Context& context);
  featurelab::Index outputs() const override { return 1; }
  void init(featurelab::Rng& rng) override;
  void forward(featurelab::ConstMatRef X, featurelab::MatRef out) override;
  void backward(featurelab::ConstMatRef X, featurelab::ConstMatRef dout, featurelab::VecRef grad) override;
  void input_gradient(featurelab::ConstMatRef X, featurelab::ConstMatRef dout, featurelab::MatRef dX) override;
  std::vector<featurelab::HookSpec> hook_points() const override;
  void hook(const std::string& name, featurelab::ConstMatRef X, featurelab::Mat& out) override;

 private:
  // Z = XWᵀ − b, one GEMM per half of the neurons.
  void preactivations(featurelab::ConstMatRef X, featurelab::Mat& Z) const;
  // Z_ := dL/dZ from dL/dg (n×1), in place.
  void gradient_in_place(featurelab::ConstMatRef dout);
  // Rows of the products a_i h_i held at once (forward): a whole n×4m buffer would double a large batch's memory.
  static constexpr featurelab::Index kProductRows = 4096;
  featurelab::BlockHandle W_, a_, b_;
  featurelab::Index width_, dim_;
  double sigma_w_, sigma_a_, bias_;
  bool binary_;
  bool holds_preactivations_ = false;  // Z_ is Z (false once backward wrote dL/dZ over it)
  featurelab::Mat Z_, H_, P_;  // pre-activations (then dL/dZ, after backward), activations, a block of products a_i h_i
};

}  // namespace featurelab::feature_emergence_pack
