// Probes of in-context parity models (Shi 2024 ch. 5, Thms. 5.5.1–5.5.2), for the icl-sparse-parity distribution's
// dictionary G and bias γ:
//   parity-coverage   with the population context (h = Gz, z_i = z_j = 2γ) for every ordered task (i, j) and every
//     query (all of {±1}^d up to d = 12; beyond, the 4 patterns of (φ_i, φ_j) with 256 random completions each): the
//     hinge loss and accuracy on S_1 and S_2 (hinge_s1, accuracy_s1, …) and the number of (task, (φ_i, φ_j)) patterns
//     whose margin y·g falls below 1 for some query (uncovered_s1/_s2, out of patterns_s1/_s2): the tasks a model
//     "covers" (Thm. 5.5.1: g_2* covers S_1 and S_2, g_1* only S_1).
//   parity-noise-projection   D = [diag(GᵀW^{(i)}G)]_i (d×m): rank (Thm. 5.5.2: v + 1 for the constructions) and the
//     energy E‖P_D Ξ‖² of the M-shot input noise Ξ = (1/M) Σ ξ_l, ξ_l ~ U{±1}^d, exactly (rank/M) and by Monte
//     Carlo (`samples`); offdiag = the largest off-diagonal |V_ab| relative to the largest entry (0 for the
//     constructions: the projection assumes diagonal heads).
#pragma once

#include "contract_setups.hpp"

#include <featurelab/probe.hpp>

namespace fourier_icl {

class ParityCoverage : public featurelab::Probe {
 public:
  static constexpr featurelab::Doc kDoc =
      "Hinge loss, accuracy and uncovered (task, pattern) counts on S_1 and S_2 with the population context "
      "(Shi 2024 Thm. 5.5.1), for icl-sparse-parity models.";
  static featurelab::Schema schema() { return featurelab::Schema{}; }
  static featurelab::ContractData contract_data() { return icl_parity_contract(); }
  ParityCoverage(const featurelab::Params& params, featurelab::Context& context);
  void measure(const featurelab::ProbeInput& in, featurelab::Measurements& out) override;

 private:
  featurelab::DataSpec data_;
  featurelab::Mat prompts_, scores_;
};

class ParityNoiseProjection : public featurelab::Probe {
 public:
  static constexpr featurelab::Doc kDoc =
      "Rank of the heads' diagonal matrix D and the projected M-shot input-noise energy E‖P_D Ξ‖² (Shi 2024 Thm. 5.5.2).";
  static featurelab::Schema schema();
  static std::map<std::string, featurelab::Value> test_params() {
    return {{"samples", std::int64_t(1000)}, {"shots", std::int64_t(8)}};
  }
  static featurelab::ContractData contract_data() { return icl_parity_contract(); }
  ParityNoiseProjection(const featurelab::Params& params, featurelab::Context& context);
  void measure(const featurelab::ProbeInput& in, featurelab::Measurements& out) override;

 private:
  featurelab::Index samples_, shots_;
};

}  // namespace fourier_icl
