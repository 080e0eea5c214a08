// Probe `cluster-cosine-matrix` (Li, Pan, Lyu, Li 2024 §6, App. E): cos(μ_i, w_j) for centres × (groups of)
// neurons, with the block (feature averaging) / diagonal (decoupling) summaries.
#pragma once

#include "cluster_geometry.hpp"

#include <featurelab/probe.hpp>

#include <string>
#include <vector>

namespace featurelab::feature_averaging_pack {

class ClusterCosineMatrixProbe : public featurelab::Probe {
 public:
  static constexpr featurelab::Doc kDoc =
      "cos(μ_i, w_j) for every cluster centre i and (group-averaged) neuron j (table \"cosine\"); matched "
      "(neuron serves the centre) and unmatched means/extremes, decoupling score max_i cos, averaging score cos(w, Σ "
      "matched μ).";
  static featurelab::Schema schema();
  static featurelab::ContractData contract_data() { return clusters_contract(); }
  static std::vector<std::string> metrics() {
    return {"matched_mean", "matched_min", "matched_max", "unmatched_mean", "unmatched_max", "unmatched_min",
            "decoupling", "averaging", "matched_spread"};
  }
  ClusterCosineMatrixProbe(const featurelab::Params& params, featurelab::Context& context);
  void measure(const featurelab::ProbeInput& in, featurelab::Measurements& out) override;

 private:
  featurelab::Index group_;
};

}  // namespace featurelab::feature_averaging_pack
