// Probes of the first layer, following the proof of Frei et al. Theorem 3.1 (§4, App. A):
//   neuron-feature-correlation  Lemmas 4.2, 4.10: corr_j = |⟨ŵ_j, own mean⟩| (positive neurons: μ1, negative: μ2)
//                               and the cross correlation with the other mean; min/p10/median/max
//   candidate-sets              Lemmas 4.1, 4.2, 4.4, fixed at the first measurement (t = 0): J_{±μ1}, J_{±μ2} by the
//                               threshold 1/(3C0√d) or by sign, their sizes against m(1−1/C0)²/4, the
//                               init norms ‖w_j‖/(ω√d), the init correlation scale, the activation edge
//   neuron-alignment            fraction of J neurons satisfying Condition 4.7 at t
//   almost-orthogonality        Condition 4.8, |⟨w_j, other⟩| ≤ factor·α|a_j| for j ∈ J
//   feature-map-change          Prop. 3.2: min_i ‖φ(Wx_i) − φ(W0x_i)‖/‖φ(W0x_i)‖, also × ‖W0‖_F
#pragma once

#include "xor_geometry.hpp"

#include <featurelab/probe.hpp>

#include <array>
#include <optional>
#include <vector>

namespace feature_amplification {

// J_μ for μ = +μ1, −μ1, +μ2, −μ2 (cluster order), from the weights at t = 0.
using CandidateSets = std::array<std::vector<featurelab::Index>, 4>;

class NeuronFeatureCorrelation : public featurelab::Probe {
 public:
  static constexpr featurelab::Doc kDoc =
      "Normalised correlation of each neuron with its own mean (μ1 for a_j > 0, μ2 for a_j < 0) and with the other: "
      "own_min/p10/median/max, cross_median/max (Frei et al. Lemmas 4.2, 4.10).";
  static featurelab::Schema schema() { return featurelab::Schema{}; }
  static featurelab::ContractData contract_data() { return xor_contract(); }
  NeuronFeatureCorrelation(const featurelab::Params&, featurelab::Context&) {}
  void measure(const featurelab::ProbeInput& in, featurelab::Measurements& out) override;
};

class CandidateSetsProbe : public featurelab::Probe {
 public:
  static constexpr featurelab::Doc kDoc =
      "The candidate sets J_μ of Lemma 4.2 at t = 0 (threshold 1/(3 C0 √d) or sign), their sizes against m(1−1/C0)²/4, "
      "init norms ‖w_j‖/(ω√d) (Lemma 4.1) and the activation edge Edge_μ(j)/n (Lemma 4.4).";
  static featurelab::Schema schema();
  static featurelab::ContractData contract_data() { return xor_contract(); }
  CandidateSetsProbe(const featurelab::Params& params, featurelab::Context& context);
  void measure(const featurelab::ProbeInput& in, featurelab::Measurements& out) override;

 private:
  double c0_;
  bool by_sign_;
  std::optional<double> omega_;  // empty: auto
  featurelab::Measurements first_;  // the t = 0 measurement, repeated at every step
  bool measured_ = false;
};

class NeuronAlignment : public featurelab::Probe {
 public:
  static constexpr featurelab::Doc kDoc =
      "Fraction of the (sign-based, t = 0) candidate neurons satisfying the neuron alignment condition 4.7 at t: "
      "active on every point of their cluster, inactive on the opposite one.";
  static featurelab::Schema schema() { return featurelab::Schema{}; }
  static featurelab::ContractData contract_data() { return xor_contract(); }
  NeuronAlignment(const featurelab::Params&, featurelab::Context&) {}
  void measure(const featurelab::ProbeInput& in, featurelab::Measurements& out) override;

 private:
  CandidateSets sets_;
  bool fixed_ = false;
};

class AlmostOrthogonality : public featurelab::Probe {
 public:
  static constexpr featurelab::Doc kDoc =
      "Condition 4.8 at t: the fraction of candidate neurons with |<w_j, other mean>| <= factor·α|a_j|, and the "
      "largest |<w_j, other>|/(α|a_j|).";
  static featurelab::Schema schema();
  static featurelab::ContractData contract_data() { return xor_contract(); }
  AlmostOrthogonality(const featurelab::Params& params, featurelab::Context& context);
  void measure(const featurelab::ProbeInput& in, featurelab::Measurements& out) override;

 private:
  double lr_, factor_;
  CandidateSets sets_;
  bool fixed_ = false;
};

class FeatureMapChange : public featurelab::Probe {
 public:
  static constexpr featurelab::Doc kDoc =
      "Prop. 3.2: min over training points of ‖φ(Wx) − φ(W0x)‖/‖φ(W0x)‖ against the first measurement's W0, and that "
      "minimum times ‖W0‖_F (≈ ω√(md)).";
  static featurelab::Schema schema() { return featurelab::Schema{}; }
  static featurelab::ContractData contract_data() { return xor_contract(); }
  FeatureMapChange(const featurelab::Params&, featurelab::Context&) {}
  void measure(const featurelab::ProbeInput& in, featurelab::Measurements& out) override;

 private:
  featurelab::Mat W0_;
};

// The candidate sets of W: neuron j joins J_μ for μ ∈ {±own_j} when ⟨ŵ_j, μ⟩ > threshold.
CandidateSets candidate_sets(const featurelab::Mat& W, const featurelab::Vec& a, const featurelab::Mat& means, double threshold);

}  // namespace feature_amplification
