// Model `ground-truth-net`: the fixed "ground-truth" networks Shi 2024 proves exist, built from the
// distribution's features (Context::features) — to test that the data is what the theory says (the
// net fits it with the stated margin), and to estimate OPT (Def. 3.3/3.11) by training only its
// readout (trainable_readout = true: block a trainable, e.g. a phased-gd readout phase).
//   g*(x) = Σ_i a_i act(⟨w_i, x⟩ ± b_i);  blocks W (n×d), b (1×n), a (1×n), by kind:
//
//   ch2-bump (Lemma 2.5 / A.2, proof Eq. A.6–A.16; ch. 2 convention: truncated ReLU σ(z) = min(1, max(z, 0)),
//       pre-activation ⟨w, x⟩ + b). With w = σ̃ v, v = Σ_{j∈A} M_j ("ground_truth"), ⟨w, x⟩ = c − μ where c is
//       the count of present relevant patterns and μ = Σ_{j∈A} E φ̃_j. The bump
//       δ_{s,a,β}(z) = a ReLU(z − s + β) − 2a ReLU(z − s) + a ReLU(z − s − β) peaks at s with height aβ;
//       g1 = Σ_{p∈P} δ_{p−μ, 2, ½} − Σ_{p∉P, 0≤p≤k} δ_{p−μ, 2, ½} (value exactly ±1 at every count), and g2 the
//       same with s = p − μ + ¼, a = 4 (value at c = p is also ±1). The lemma keeps the one whose biases all
//       have |b| ≥ 1/8 (their grids differ by ¼), then scales w, b by 1/(4k) and a by 4k so every
//       pre-activation lies in [−1, 1] and the truncated ReLU acts as a ReLU: 3(k+1) neurons, |a*| ≤ 32k,
//       1/(32k) ≤ |b*| ≤ ½, w* = σ̃ v/(4k), and y g*(x) = 1 EXACTLY on every sample (margin 1, loss 0).
//       P: label = parity (odd counts), threshold (c > k/2), interval [t1, t2] or set (positive_counts).
//       σ̃ and μ are not recoverable from v: give sigma_tilde and mu, or let the distribution expose
//       "normalisation" = [σ̃, μ].
//   ch3-parity (Lemma B.51, Eq. B.469–B.470; ch. 3 convention: ReLU(⟨w, x⟩ − b)):
//       g* = Σ_{j≤r} Σ_{i=0}^{k} s_i √k [ReLU(⟨D_j,x⟩ − (2i−k−1)/√k) − 2 ReLU(⟨D_j,x⟩ − (2i−k)/√k)
//            + ReLU(⟨D_j,x⟩ − (2i−k+1)/√k)],  s_i = (−1)^{k−i},
//       a bump of height 1 at ⟨D_j, x⟩ = (2i − k)/√k, i.e. where block A_j has i entries +1 and k − i entries −1
//       (D_j = Σ_{l∈A_j} M_l/√k, "directions"); s_i = (−1)^{k−i} is the block's parity, which is the seed's
//       (−1)^{i+1} for odd k (B.470) and (−1)^i for even k (B.551, uniform parity). An all-zero block sits
//       between two bumps (k odd) and contributes 0, so g* = Σ_j XOR(φ_{A_j}) and y g* ≥ 1: 3r(k+1) neurons.
//   ch3-mixture (Lemma B.34, Eq. B.310): g* = Σ_j y_(j)/(√(τ log d) σ_B+) ReLU(⟨D_j, x⟩ − 2√(τ log d) σ_B+),
//       r neurons on the unit cluster directions D_j ("directions"), cluster labels y_(j) from
//       cluster_labels or the feature "cluster_labels"; hinge loss ≤ 3/d^τ + 4/(d^{0.9τ−1}√(τ log d)).
//   ch3-linear (Lemma B.26, Eq. B.226): g* = (1/β) ReLU(⟨w*, x⟩) − (1/β) ReLU(⟨−w*, x⟩) = ⟨w*, x⟩/β with w*
//       the unit "direction": y g* ≥ 1 when the data has margin β.
#pragma once

#include <featurelab/model.hpp>
#include <featurelab/contract.hpp>

namespace featurelab::feature_emergence_pack {

class GroundTruthNet : public featurelab::Model {
 public:
  static constexpr featurelab::Doc kDoc =
      "Fixed ground-truth networks built from the distribution's features: ch2-bump (Lemma 2.5, y g* = 1 exactly), "
      "ch3-parity (Lemma B.51), ch3-mixture (Lemma B.34), ch3-linear (Lemma B.26); trainable_readout trains a (OPT).";
  static featurelab::Schema schema();
  // The ch3-linear network on its data, with the readout trained so that backward() has work.
  static std::map<std::string, featurelab::Value> test_params() {
    return {{"kind", std::string("ch3-linear")}, {"trainable_readout", true}};
  }
  static featurelab::ContractData contract_data() { return {{"linear-separable", {{"dim", std::int64_t(6)}}}, {}, {}, {}}; }
  GroundTruthNet(const featurelab::Params& params, featurelab::Context& context);
  featurelab::Index outputs() const override { return 1; }
  // Writes the constructed network (the rng is not used: the network is determined by the features).
  void init(featurelab::Rng& rng) override;
  void forward(featurelab::ConstMatRef X, featurelab::MatRef out) override;
  void backward(featurelab::ConstMatRef X, featurelab::ConstMatRef dout, featurelab::VecRef grad) override;
  void input_gradient(featurelab::ConstMatRef X, featurelab::ConstMatRef dout, featurelab::MatRef dX) override;
  std::vector<featurelab::HookSpec> hook_points() const override;
  void hook(const std::string& name, featurelab::ConstMatRef X, featurelab::Mat& out) override;

 private:
  void build_ch2_bump(const featurelab::Params& params, const featurelab::FeatureSet& features);
  void build_ch3_parity(const featurelab::Params& params, const featurelab::FeatureSet& features);
  void build_ch3_mixture(const featurelab::Params& params, const featurelab::FeatureSet& features);
  void build_ch3_linear(const featurelab::Params& params, const featurelab::FeatureSet& features);
  // Z = XWᵀ ± b into Z_, activations into H_, derivative into S_.
  void activate(featurelab::ConstMatRef X);

  std::string kind_;
  std::string who_;  // "ground-truth-net (kind = ch3-parity)", for messages
  featurelab::BlockHandle W_, b_, a_;
  bool truncated_ = false;  // ch. 2: truncated ReLU and +b; ch. 3: ReLU and −b
  featurelab::Index dim_;
  featurelab::Mat W0_, b0_, a0_;  // the constructed network, written by init()
  featurelab::Mat Z_, H_, S_;
};

}  // namespace featurelab::feature_emergence_pack
