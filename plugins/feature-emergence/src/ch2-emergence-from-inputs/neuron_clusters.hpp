// Probe `neuron-clusters`: do the neurons' directions form clusters? Shi 2024 Fig. 2.3 / A.13 (a two-layer
// network on the 0/1 digits of MNIST: "the weights gradually form two clusters") and App. A.7.4, which
// quantifies a pair of clusters by the average cosine within each and the cosine between their centres
// (0.62 / 0.70 within, −0.72 between, for ResNet filters). Needs no ground truth, so it reads real data.
// On the unit neurons u_i = w_i/‖w_i‖ (N×d; block W, or W0 + dW), spherical k-means with a deterministic
// start (the most opposed pair, then farthest points), then:
//   within   = mean cos(u_i, u_j) over the pairs i ≠ j of the same cluster (pooled over clusters),
//   between  = the largest cos between two cluster centres (the mean directions; k = 2: their cosine),
//   smallest = the share of neurons in the smallest cluster (a 49/1 split is not two clusters).
// Random directions in d dimensions give within ≈ 0 (|cos| ~ 1/√d); k tight opposed clusters give
// within → 1 and between → −1. Table "map" (for plots: the chapter's MDS picture): per neuron x, y = its
// coordinates along the top two principal directions of the centred u_i (classical MDS of the cosine
// similarities), cluster (0 … k−1) and norm ‖w_i‖.
#pragma once

#include "first_layer.hpp"

#include <featurelab/probe.hpp>

#include <string>
#include <vector>

namespace featurelab::feature_emergence_pack {

class NeuronClusters : public featurelab::Probe {
 public:
  static constexpr featurelab::Doc kDoc =
      "Spherical k-means of the normalised first-layer neurons (Shi 2024 Fig. 2.3, App. A.7.4): within (mean cosine "
      "of same-cluster pairs), between (largest cosine of two centres), smallest (share of the smallest cluster); "
      "table map (x, y, cluster, norm) for plots.";
  static featurelab::Schema schema();
  static std::vector<std::string> metrics() { return {"within", "between", "smallest"}; }
  static featurelab::ContractData contract_data() { return patterns_contract(); }
  NeuronClusters(const featurelab::Params& params, featurelab::Context& context);
  void measure(const featurelab::ProbeInput& in, featurelab::Measurements& out) override;

 private:
  int clusters_;
};

}  // namespace featurelab::feature_emergence_pack
