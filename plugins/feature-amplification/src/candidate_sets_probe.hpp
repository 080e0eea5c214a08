// Probe `candidate-sets` (Frei et al. 2022, Lemmas 4.1, 4.2, 4.4), fixed at the first measurement (t = 0): J_{±μ1},
// J_{±μ2} by the threshold 1/(3C0√d) or by sign, their sizes against m(1−1/C0)²/4, the init norms ‖w_j‖/(ω√d),
// the init correlation scale, the activation edge.
#pragma once

#include "xor_geometry.hpp"

#include <featurelab/probe.hpp>

#include <optional>
#include <string>
#include <vector>

namespace featurelab::feature_amplification_pack {

class CandidateSetsProbe : public featurelab::Probe {
 public:
  static constexpr featurelab::Doc kDoc =
      "The candidate sets J_μ of Lemma 4.2 at t = 0 (threshold 1/(3 C0 √d) or sign), their sizes against m(1−1/C0)²/4, "
      "init norms ‖w_j‖/(ω√d) (Lemma 4.1) and the activation edge Edge_μ(j)/n (Lemma 4.4).";
  static featurelab::Schema schema();
  static featurelab::ContractData contract_data() { return xor_contract(); }
  static std::vector<std::string> metrics() {
    return {"size_plus_mu1", "size_minus_mu1", "size_plus_mu2", "size_minus_mu2", "min_size", "size_bound",
            "init_norm_min", "init_norm_max", "init_corr_median_sqrt_d", "edge_min", "edge_median"};
  }
  CandidateSetsProbe(const featurelab::Params& params, featurelab::Context& context);
  void measure(const featurelab::ProbeInput& in, featurelab::Measurements& out) override;

 private:
  double c0_;
  bool by_sign_;
  std::optional<double> omega_;  // empty: auto
  featurelab::Measurements first_;  // the t = 0 measurement, repeated at every step
  bool measured_ = false;
};

}  // namespace featurelab::feature_amplification_pack
