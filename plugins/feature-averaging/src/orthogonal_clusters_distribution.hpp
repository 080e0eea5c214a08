// Distribution `orthogonal-clusters` (Li, Pan, Lyu, Li 2024, Def. 3.1, Assumptions 3.2–3.3, App. E.1):
// k clusters with centres μ_j of norm √d, orthogonal or with a chosen pairwise cosine κ;
// x = α·μ_j + σ·ξ, ξ ~ N(0, I_d); cluster j is on the + side if j ∈ J+. Labels are the binary side
// (label = "binary": class 1 = +) or the cluster (label = "cluster", k classes: fine-grained
// supervision); both are always in the metadata columns "binary" (0/1) and "cluster".
// Features for probes and attacks: "centres" (k×d) and "partition" (1×k, ±1).
#pragma once

#include <featurelab/distribution.hpp>

namespace featurelab::feature_averaging_pack {

class OrthogonalClustersDistribution : public featurelab::Distribution {
 public:
  static constexpr featurelab::Doc kDoc =
      "k clusters x = α μ_j + σ ξ with orthogonal (or pairwise cosine κ) centres of norm √d; binary labels by a "
      "split J+/J− or the cluster labels; features centres and partition (Li et al. 2024, Def. 3.1).";
  static featurelab::Schema schema();
  static double dimension(const featurelab::Params& params);  // D, for the memory estimate at validation
  OrthogonalClustersDistribution(const featurelab::Params& params, featurelab::Context& context);
  featurelab::DataSpec spec() const override;
  void sample(featurelab::Index n, featurelab::Split split, featurelab::Rng& rng, featurelab::Dataset& out) override;
  featurelab::FeatureSet features() const override;

 private:
  int k_;
  featurelab::Index d_;
  double alpha_, sigma_;
  bool balanced_, cluster_labels_;
  featurelab::Mat centres_;    // k×d
  featurelab::Mat partition_;  // 1×k, ±1
};

}  // namespace featurelab::feature_averaging_pack
