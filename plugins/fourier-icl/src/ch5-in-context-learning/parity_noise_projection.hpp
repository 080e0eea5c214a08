// Probe of in-context parity models (Shi 2024 ch. 5, Thm. 5.5.2), for the icl-sparse-parity distribution's
// dictionary G and bias γ:
//   parity-noise-projection   D = [diag(GᵀW^{(i)}G)]_i (d×m): rank (Thm. 5.5.2: v + 1 for the constructions) and the
//     energy E‖P_D Ξ‖² of the M-shot input noise Ξ = (1/M) Σ ξ_l, ξ_l ~ U{±1}^d, exactly (rank/M) and by Monte
//     Carlo (`samples`); offdiag = the largest off-diagonal |V_ab| relative to the largest entry (0 for the
//     constructions: the projection assumes diagonal heads).
#pragma once

#include "common/contract_setups.hpp"

#include <featurelab/probe.hpp>

#include <string>
#include <vector>

namespace featurelab::fourier_icl_pack {

class ParityNoiseProjection : public featurelab::Probe {
 public:
  static constexpr featurelab::Doc kDoc =
      "Rank of the heads' diagonal matrix D and the projected M-shot input-noise energy E‖P_D Ξ‖² (Shi 2024 Thm. 5.5.2).";
  static featurelab::Schema schema();
  static std::vector<std::string> metrics() { return {"rank", "energy_exact", "energy_mc", "offdiag"}; }
  static std::map<std::string, featurelab::Value> test_params() {
    return {{"samples", std::int64_t(1000)}, {"shots", std::int64_t(8)}};
  }
  static featurelab::ContractData contract_data() { return icl_parity_contract(); }
  ParityNoiseProjection(const featurelab::Params& params, featurelab::Context& context);
  void measure(const featurelab::ProbeInput& in, featurelab::Measurements& out) override;

 private:
  featurelab::Index samples_, shots_;
};

}  // namespace featurelab::fourier_icl_pack
