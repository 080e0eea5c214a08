// Probe of in-context parity models (Shi 2024 ch. 5, Thm. 5.5.1), for the icl-sparse-parity distribution's
// dictionary G and bias γ:
//   parity-coverage   with the population context (h = Gz, z_i = z_j = 2γ) for every ordered task (i, j) and every
//     query (all of {±1}^d up to d = 12; beyond, the 4 patterns of (φ_i, φ_j) with 256 random completions each): the
//     hinge loss and accuracy on S_1 and S_2 (hinge_s1, accuracy_s1, …) and the number of (task, (φ_i, φ_j)) patterns
//     whose margin y·g falls below 1 for some query (uncovered_s1/_s2, out of patterns_s1/_s2): the tasks a model
//     "covers" (Thm. 5.5.1: g_2* covers S_1 and S_2, g_1* only S_1). hinge_s1/_s2 weigh the four patterns alike;
//     pretrain_loss is Thm. 5.5.1's objective at λ → 0⁺ exactly: the population hinge loss of the pretraining
//     prompts, tasks uniform on S_1 w.p. 1 − p_T and on S_2 w.p. p_T, patterns weighted 1/4 + γ, 1/4, 1/4, 1/4 − γ
//     (exhaustive up to d = 12; beyond, over the random completions).
#pragma once

#include "common/contract_setups.hpp"

#include <featurelab/probe.hpp>

#include <string>
#include <vector>

namespace featurelab::fourier_icl_pack {

class ParityCoverage : public featurelab::Probe {
 public:
  static constexpr featurelab::Doc kDoc =
      "Hinge loss, accuracy and uncovered (task, pattern) counts on S_1 and S_2 with the population context "
      "(Shi 2024 Thm. 5.5.1), for icl-sparse-parity models.";
  static featurelab::Schema schema() { return featurelab::Schema{}; }
  static std::vector<std::string> metrics() {
    return {"hinge_s1", "accuracy_s1", "uncovered_s1", "patterns_s1", "hinge_s2", "accuracy_s2", "uncovered_s2",
            "patterns_s2", "pretrain_loss"};
  }
  static featurelab::ContractData contract_data() { return icl_parity_contract(); }
  ParityCoverage(const featurelab::Params& params, featurelab::Context& context);
  void measure(const featurelab::ProbeInput& in, featurelab::Measurements& out) override;

 private:
  featurelab::DataSpec data_;
  featurelab::Mat prompts_, scores_;
};

}  // namespace featurelab::fourier_icl_pack
