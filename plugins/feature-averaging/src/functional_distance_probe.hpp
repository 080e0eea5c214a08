// Probe `functional-distance` (Li et al. 2024, Theorem 4.6, the conjecture of Min and Vidal):
// inf_{C > 0} sup_{‖x‖ = √d} |C f_FA(x) − f(x)|, with f_FA the feature-averaging network of
// Definition 4.1, f_FA(x) = |J+| ReLU(⟨μ+, x⟩) − |J−| ReLU(⟨μ−, x⟩), μ± the mean centre of each side.
// The sup is found by projected gradient ascent on the sphere from many starts, the inf by a
// golden-section search over log C (the sup of |C a − b| is convex in C).
#pragma once

#include "cluster_geometry.hpp"

#include <featurelab/probe.hpp>

#include <string>
#include <vector>

namespace featurelab::feature_averaging_pack {

class FunctionalDistanceProbe : public featurelab::Probe {
 public:
  static constexpr featurelab::Doc kDoc =
      "Theorem 4.6: D = inf_C sup_{‖x‖=√d} |C f_FA(x) − f(x)| (sup by projected gradient ascent on the sphere from "
      "the centres, the averaged directions and random starts; inf by golden-section search over log C), the best C, "
      "and D relative to sup |f| on the sphere (0: f is a feature-averaging network; 1: no better than C = 0). "
      "One-output (binary) nets only: nothing for others.";
  static featurelab::Schema schema();
  static featurelab::ContractData contract_data() { return clusters_contract(); }
  static std::vector<std::string> metrics() { return {"sup_distance", "relative", "scale"}; }
  FunctionalDistanceProbe(const featurelab::Params& params, featurelab::Context& context);
  void measure(const featurelab::ProbeInput& in, featurelab::Measurements& out) override;

 private:
  featurelab::Index random_starts_, ascent_steps_, search_steps_;
};

}  // namespace featurelab::feature_averaging_pack
