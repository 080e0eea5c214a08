// Probe `decision-grid` (Frei et al. 2022, Figure 1 and §3 after Theorem 3.1): sgn f on a grid of the
// μ1–μ2 plane (table → heatmap) with the training points over it, and how closely the regions are
// those of the reference classifier sgn(|⟨μ1,x⟩| − |⟨μ2,x⟩|), whose boundary is the X of the diagonals.
#pragma once

#include "xor_geometry.hpp"

#include <featurelab/probe.hpp>

#include <string>
#include <vector>

namespace featurelab::feature_amplification_pack {

class DecisionGridProbe : public featurelab::Probe {
 public:
  static constexpr featurelab::Doc kDoc =
      "Figure 1: sgn f on a resolution × resolution grid of [low, high]² in the plane of μ1, μ2 (table \"sign\", "
      "a heatmap in featurelab plot), the training points over it (tables \"clean_points\", \"noisy_points\": x, "
      "y, observed label; recorded once), the share of grid points where sgn f = sgn(|<μ1,x>| − |<μ2,x>|), and "
      "on the circle through the cluster centres the number of sign changes of f and the largest angle "
      "between one and the nearest diagonal (the X: 4 changes, 0°; 45° when there are not 4).";
  static featurelab::Schema schema();
  static featurelab::ContractData contract_data() { return xor_contract(); }
  static std::vector<std::string> metrics() { return {"oracle_agreement", "boundary_crossings", "boundary_angle_max_deg"}; }
  DecisionGridProbe(const featurelab::Params& params, featurelab::Context& context);
  void measure(const featurelab::ProbeInput& in, featurelab::Measurements& out) override;

 private:
  void record_points(const featurelab::ProbeInput& in, const featurelab::Mat& plane, featurelab::Measurements& out);

  double low_, high_;
  featurelab::Index resolution_;
  bool points_;
  bool points_recorded_ = false;
};

}  // namespace featurelab::feature_amplification_pack
