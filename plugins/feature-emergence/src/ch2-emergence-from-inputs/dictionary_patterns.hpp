// Distribution `dictionary-patterns` (Shi 2024 ch. 2, Sec. 2.3, App. A.7): x̃ = M φ̃ with an
// orthonormal dictionary M (d × D) and pattern presences φ̃ ∈ {0,1}^D; the label depends on how many
// of the k class-relevant patterns A are present:
//   parity     y = +1 iff an odd number of A is on (k odd)
//   threshold  y = +1 iff more than k/2 are on
//   interval   y = +1 iff the count lies in [t1, t2]
// Pattern models:
//   parity-mixture  D_mix = p_o·Uniform + (1 − p_o)·D1, D1: φ̃_A all 0 or all 1 (½ each), the others
//                   Bernoulli(p_o/(2 − 2p_o)): input structure correlated with the label
//   independent     φ̃_j ~ Bernoulli(p_A) on A, Bernoulli(p_o) elsewhere (the interval experiment)
//   uniform         every pattern Bernoulli(½): "without input structure"
// Inputs are normalised as the chapter requires: x = M(φ̃ − E φ̃)/σ̃ with σ̃² = Σ_j Var φ̃_j (analytic).
// Features: ground_truth v = Σ_{j∈A} M_j (1×d), dictionary (D×d, rows M_jᵀ), relevant (1×D indicator),
// normalisation [σ̃, Σ_{j∈A} E φ̃_j] (1×2, for Lemma 2.5's ground-truth network).
// Each split also carries its input codes (dataset.hpp): codes (φ̃ − E φ̃)/σ̃ (n×D) and basis M, so a model
// offering CodedInputs multiplies by D columns instead of d (Table A.1's d = 500 and D = 100: a fifth).
#pragma once

#include <featurelab/distribution.hpp>

#include <memory>

namespace featurelab::feature_emergence_pack {

class DictionaryPatterns : public featurelab::Distribution {
 public:
  static constexpr featurelab::Doc kDoc =
      "x = M(φ − Eφ)/σ̃ over an orthonormal dictionary; labels parity / threshold / interval of the k relevant "
      "patterns; pattern models parity-mixture (input structure), independent, uniform (Shi 2024 §2.3).";
  static featurelab::Schema schema();
  static double dimension(const featurelab::Params& params);  // D, for the memory estimate at validation
  DictionaryPatterns(const featurelab::Params& params, featurelab::Context& context);
  featurelab::DataSpec spec() const override;
  void sample(featurelab::Index n, featurelab::Split split, featurelab::Rng& rng, featurelab::Dataset& out) override;
  featurelab::FeatureSet features() const override;

 private:
  bool label_of(const std::vector<int>& on) const;
  bool label_of_count(int count) const;
  // E φ̃_j for j ∈ A once the classes are resampled to negative_ratio (App. A.7.2): the class-conditional
  // presence mixed at the new class shares. Outside A presence does not depend on y, so it keeps its marginal.
  double resampled_relevant_mean() const;
  void draw_patterns(featurelab::Rng& rng, std::vector<int>& on) const;

  featurelab::Index d_, D_;
  int k_;
  std::string model_, label_;
  double p_o_, p_a_;
  std::int64_t t1_, t2_;
  double negative_ratio_;
  featurelab::Mat M_;          // D×d: row j is M_jᵀ
  std::shared_ptr<const featurelab::Mat> basis_;  // M_ again, shared by every split's input codes
  std::vector<int> relevant_;  // the k indices of A
  std::vector<bool> in_a_;
  featurelab::VecD mean_;      // E φ̃_j
  double scale_ = 1;           // 1/σ̃
};

}  // namespace featurelab::feature_emergence_pack
