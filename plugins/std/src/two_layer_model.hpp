// Model `two-layer`: f_k(x) = Σ_j a_kj φ(⟨w_j, x⟩ + b_j) (random-features, random_features_model.hpp, is the
// same net with the first layer frozen at its random init and only the second layer trained).
//
// Second layer (second_layer):
//   balanced    one output; a_j = +s for j < m/2, −s for the rest (odd m: the last is 0), fixed.
//               Frei, Chatterji & Bartlett (2022), §2.1, with s = 1/√m.
//   random-sign a_kj = ±s i.i.d., fixed.
//   per-class   neurons split into K consecutive groups; group c feeds only output c with weight
//               s, fixed: the k-class nets of the feature-averaging and midpoint-mixup papers.
//   trainable   a dense K×m block drawn N(0, s²) and trained.
#pragma once

#include <featurelab/activation.hpp>
#include <featurelab/capabilities.hpp>
#include <featurelab/model.hpp>

#include <optional>

namespace featurelab::std_pack {

class TwoLayerModel : public Model, public FusedStep {
 public:
  static constexpr Doc kDoc =
      "Two-layer network f(x) = a·φ(Wx + b): ReLU, leaky, smoothed-ReLU, z^p or identity activation; "
      "fixed balanced / random-sign / per-class or trainable second layer (Frei et al. 2022 §2.1).";
  static Schema schema();

  TwoLayerModel(const Params& params, Context& context) : TwoLayerModel(params, context, false) {}

  Index outputs() const override { return outputs_; }
  void init(Rng& rng) override;
  // X: n×D -> out: n×K
  void forward(ConstMatRef X, MatRef out) override;
  // dout: n×K -> grad over the trainable blocks
  void backward(ConstMatRef X, ConstMatRef dout, VecRef grad) override;
  // dout: n×K -> dX: n×D
  void input_gradient(ConstMatRef X, ConstMatRef dout, MatRef dX) override;
  std::vector<HookSpec> hook_points() const override;
  void hook(const std::string& name, ConstMatRef X, Mat& out) override;
  // Backpropagates from hidden.pre / hidden.post into W and b (nothing when they are frozen).
  void hook_backward(const std::string& name, ConstMatRef X, ConstMatRef dhook, VecRef grad) override;
  // One output and a built-in activation, and either a first layer small enough that a chunk's gradient
  // stays in cache beside its rows of X (Li et al.'s m = 10: forward, loss and backward per block of
  // rows, X read once), or at most kSmallInputMaxDim inputs (Frei et al.'s D = 2: per row, nothing n×m
  // stored, two_layer_small_input.hpp).
  bool fused_step(const Batch& batch, const SeparableLoss& loss, VecRef grad, Scalar& value) override;

 protected:
  TwoLayerModel(const Params& params, Context& context, bool random_features);
  // The schema of two-layer and random-features (which has no second_layer, and second_scale 0).
  static Schema common_schema(bool random_features);

 private:
  void pre_activation(ConstMatRef X);  // Z_ = X Wᵀ + b
  // From kTiledMinWidth units on (and not in the recompute mode), the first layer's products Z = X Wᵀ and
  // ∇Wᵀ = Xᵀ G run on the SDK's register tiles (featurelab/tiled_products.hpp: X read in place, Wᵀ as a D × m'
  // strip matrix, m' = m rounded up to whole strips) instead of Eigen's GEMM, which at these shapes spends its
  // time packing panels: 1.4–1.7× faster at 64–800 units on AVX-512 (bench/README.md, round 31). Every output is
  // one sum in a fixed order, so the bits depend on neither the blocks nor the threads.
  bool tiled() const { return width_ >= kTiledMinWidth && !recompute(); }
  static constexpr Index kTiledMinWidth = 64;
  void tiled_pre_activation(ConstMatRef X);              // Z_ = X Wᵀ
  void tiled_weight_gradient(ConstMatRef X, MatRef dW);  // dW = G_ᵀ X
  // H_ = φ(Z_) and D_ = φ'(Z_), by fixed chunks of rows on the job's threads.
  void activations();
  void hidden_gradient(ConstMatRef dout);  // G_ = (dout a) ⊙ φ'(Z)
  // Few input dimensions (Frei et al.'s D = 2): the n×m activations cost more to store and re-read than
  // to recompute, so forward and backward run over blocks of rows that stay in cache and recompute
  // Z = X Wᵀ + b in the backward pass; nothing n×m is kept.
  bool recompute() const { return dim_ <= kRecomputeMaxDim; }
  // The recompute mode's buffers of one chunk of rows (featurelab/threads.hpp: chunks run in
  // parallel and their gradients are added in chunk order, so the result is the same on any number
  // of threads).
  struct ChunkScratch {
    Mat Z, H, D, G;
    Vec grad;
    Mat out, dout;     // a block's outputs and d(loss)/d(out) in a fused step
    double loss = 0;   // the chunk's summed loss in a fused step
  };
  void size_chunk_scratch(bool gradient);
  // Z of rows [begin, begin + rows) into the chunk's block buffer, then H = φ(Z) and/or D = φ'(Z).
  void block_activations(ChunkScratch& s, ConstMatRef X, Index begin, Index rows, bool values, bool derivatives);
  static constexpr Index kRecomputeMaxDim = 32;
  // Up to this many inputs, one output: the per-row step of two_layer_small_input.hpp (Frei et al.'s
  // D = 2), whose z of a strip of units cost D multiply-adds each, computed twice.
  static constexpr Index kSmallInputMaxDim = 8;
  // Rows whose outputs go to the loss at once in that step.
  static constexpr Index kSmallInputLossRows = 64;
  void small_input_step(const Batch& batch, const SeparableLoss& loss);
  void fused_step_blocks(const Batch& batch, const SeparableLoss& loss);
  // Rows per block of the fused step: about 384 KB of X.
  static constexpr Index kFusedBlockFloats = 98304;
  // At most this many first-layer weights for the fused step (a chunk's ∇W in L2 beside its rows of X).
  static constexpr Index kFusedMaxWeights = 65536;
  // Up to this many hidden units the fused step's products read X in place, unpacked.
  static constexpr Index kNarrowMaxWidth = 16;
  // The chunks' gradients added in chunk order into grad (the same bits on any number of threads).
  void add_chunk_gradients(VecRef grad) const;

  Activation activation_;
  BlockHandle W_, b_, a_;  // b_ empty without a bias
  Index width_;
  Index dim_;
  Index outputs_;
  bool bias_;
  bool random_features_;
  std::string second_layer_;
  std::optional<double> init_scale_;  // empty: auto
  double bias_init_scale_;
  std::optional<double> second_scale_;  // empty: auto
  Mat Z_, H_, D_, G_;  // n×m work buffers, reused while n is unchanged
  // The tiled products' operands: Wᵀ (D × m', zero beyond m), ∇Wᵀ (D × m'), and the last m mod kLanes columns of
  // Z (n × one strip) and of G (n × one strip, zero beyond them), which the tiles compute as one padded strip.
  Mat Wt_, dWt_, Z_tail_, G_tail_;
  // The small-input step's layer, (D+2)×m' with m' = m padded to whole strips: rows 0..D−1 Wᵀ, row D b
  // (zeros without a bias), row D+1 a.
  Mat small_input_layer_;
  Index block_rows_;   // rows per block in the recompute mode (≈ 64 KB of activations)
  std::vector<ChunkScratch> chunks_;
};

}  // namespace featurelab::std_pack
