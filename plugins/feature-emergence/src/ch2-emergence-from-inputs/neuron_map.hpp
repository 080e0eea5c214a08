// Probe `neuron-map`: the 2-D map of neuron directions behind Shi 2024's Fig. 2.2 / A.2 (there a
// metric MDS of the normalised neurons with the ground truth ±v drawn as stars). Here the map is a
// fixed, cheap projection, so maps at different steps share their axes' meaning:
//   u_i = w_i/‖w_i‖,  x_i = ⟨u_i, v̂⟩,  y_i = ⟨u_i, p⟩,
// v̂ the unit ground-truth direction (first row of `feature`, default "ground_truth") and p the top
// principal direction of the neurons' components orthogonal to v (centred PCA of u_i − x_i v̂; through
// the smaller of the N×N Gram and the d×d covariance; sign fixed so the largest |y_i| is positive).
// The stars ±v sit at (±1, 0) and are not stored. A neuron that learned ±v sits near (±1, 0); random
// init neurons sit near the origin (|x| ~ 1/√d). Table "map": one row per neuron, columns x, y, a_sign
// (sign of its readout a_i; the NTK model's a0 + da), norm (‖w_i‖), then rows "+v" and "-v" at (±1, 0)
// with a_sign 0 (`featurelab plot` draws tables with x and y columns as scatter plots). Scalar in_plane = mean_i (x_i² + y_i²),
// the share of each unit neuron the plane shows (1: the map is exact). First layer: block W, or W0 + dW.
#pragma once

#include "first_layer.hpp"

#include <featurelab/probe.hpp>

#include <string>
#include <vector>

namespace featurelab::feature_emergence_pack {

class NeuronMap : public featurelab::Probe {
 public:
  static constexpr featurelab::Doc kDoc =
      "2-D map of the normalised neurons for plots (Fig. 2.2/A.2): x = cos with the ground truth v, y = along the top "
      "principal direction orthogonal to v; table map (x, y, a_sign, norm) per neuron, scalar in_plane.";
  static featurelab::Schema schema();
  static std::vector<std::string> metrics() { return {"in_plane"}; }
  static featurelab::ContractData contract_data() { return patterns_contract(); }
  NeuronMap(const featurelab::Params& params, featurelab::Context& context);
  void measure(const featurelab::ProbeInput& in, featurelab::Measurements& out) override;

 private:
  std::string feature_;
};

}  // namespace featurelab::feature_emergence_pack
