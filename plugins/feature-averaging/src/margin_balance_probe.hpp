// Probe `margin-balance` (Li et al. 2024, Lemma 5.3): the training margins q_i = y_i f(x_i) of the
// binary net stay balanced, max_{i,j} (q_i − q_j) ≤ ε(k), while they grow.
#pragma once

#include "cluster_geometry.hpp"

#include <featurelab/probe.hpp>

#include <string>
#include <vector>

namespace featurelab::feature_averaging_pack {

class MarginBalanceProbe : public featurelab::Probe {
 public:
  static constexpr featurelab::Doc kDoc =
      "Lemma 5.3: the training margins q_i = y_i f(x_i) (y = ±1) of a one-output net: their mean, their spread "
      "max_i q_i − min_i q_i (the lemma's max Δ_q(i, j)) and the spread relative to the mean; nothing for a net with "
      "several outputs (the lemma is about Sec. 3.2's binary net).";
  static featurelab::Schema schema() { return featurelab::Schema{}; }
  static featurelab::ContractData contract_data() { return clusters_contract(); }
  static std::vector<std::string> metrics() { return {"mean", "gap", "relative_gap"}; }
  MarginBalanceProbe(const featurelab::Params&, featurelab::Context&) {}
  void measure(const featurelab::ProbeInput& in, featurelab::Measurements& out) override;
};

}  // namespace featurelab::feature_averaging_pack
