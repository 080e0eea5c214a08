// The pack's probes (Li et al. 2024 §6, App. E):
//   cluster-cosine-matrix        cos(μ_i, w_j) for centres × (groups of) neurons, with the block
//                                (feature averaging) / diagonal (decoupling) summaries
//   feature-averaging-distance   λ̂ = mean matched ⟨w, μ_j⟩, the distance of each neuron to the
//                                averaged direction λ̂ Σ_{J_s} μ_j / d (Thm 4.5-2), max |b|
//   activation-pattern           fraction of (sample, neuron) pairs of the same / other side active
#pragma once

#include "cluster_geometry.hpp"

#include <featurelab/probe.hpp>

namespace feature_averaging {

class ClusterCosineMatrix : public featurelab::Probe {
 public:
  static constexpr featurelab::Doc kDoc =
      "cos(μ_i, w_j) for every cluster centre i and (group-averaged) neuron j (table \"cosine\"); matched "
      "(neuron serves the centre) and unmatched means/extremes, decoupling score max_i cos, averaging score cos(w, Σ "
      "matched μ).";
  static featurelab::Schema schema();
  static featurelab::ContractData contract_data() { return clusters_contract(); }
  ClusterCosineMatrix(const featurelab::Params& params, featurelab::Context& context);
  void measure(const featurelab::ProbeInput& in, featurelab::Measurements& out) override;

 private:
  featurelab::Index group_;
};

class FeatureAveragingDistance : public featurelab::Probe {
 public:
  static constexpr featurelab::Doc kDoc =
      "λ̂ (mean ⟨w_r, μ_j⟩ over neurons and matched centres), √d·max_r ‖w_r − λ̂ Σ_{matched} μ_j/d‖ and its "
      "relative form, the largest unmatched ⟨w_r, μ_j⟩, and max |b| (Li et al. Thm 4.5-2, Lemma B.24).";
  static featurelab::Schema schema();
  static featurelab::ContractData contract_data() { return clusters_contract(); }
  FeatureAveragingDistance(const featurelab::Params& params, featurelab::Context& context);
  void measure(const featurelab::ProbeInput& in, featurelab::Measurements& out) override;
};

class ActivationPattern : public featurelab::Probe {
 public:
  static constexpr featurelab::Doc kDoc =
      "Fraction of (training sample, neuron) pairs with ⟨w_r, x⟩ + b_r ≥ 0: own (the neuron serves the sample's "
      "side or cluster) and opp (Li et al. Lemma 5.5).";
  static featurelab::Schema schema();
  static featurelab::ContractData contract_data() { return clusters_contract(); }
  ActivationPattern(const featurelab::Params& params, featurelab::Context& context);
  void measure(const featurelab::ProbeInput& in, featurelab::Measurements& out) override;
};

}  // namespace feature_averaging
