// Probe `icl-loss-vs-rank` (Shi 2024 ch. 5, Thms. 5.4.1–5.4.3): the trained linear-self-attention model against
// the closed forms, for the distribution's covariance, pretraining length N, evaluation shots M, noise σ and task c.
// With G = Qᵀ(u ABᵀ)Q (the model in the eigenbasis), r = its rank and V* the rank-r optimum:
//   rel_err            ‖G − V*‖_F / ‖V*‖_F (Thm. 5.4.1: → 0)
//   tail               max_{i > r} |G_ii| (the coefficients beyond the top r: 0 at the optimum)
//   pretrain_gap       ℓ(G)/ℓ(V*) − 1 (the pretraining objective, exact)
//   eval_loss          the exact evaluation loss of G at M shots (Thm. 5.4.2's expectation for any G)
//   eval_loss_optimal  the same for V*
//   mc_loss, mc_ratio  the mean squared error of the model on the test prompts (Monte Carlo) and its ratio to eval_loss
//   r_opt              argmin_r of the closed-form loss at (M, σ): which model size is best at this many shots
// Table `rank`: per r = 1 … d, the closed-form loss L(r) and the gap L(r) − L(r_model) (Thm. 5.4.3), and the
// coefficients table: diag(G) beside v*.
#pragma once

#include "common/contract_setups.hpp"

#include <featurelab/probe.hpp>

#include <string>
#include <vector>

namespace featurelab::fourier_icl_pack {

class IclLossVsRank : public featurelab::Probe {
 public:
  static constexpr featurelab::Doc kDoc =
      "Linear self-attention vs Shi 2024 Thms. 5.4.1–5.4.3: distance to the closed-form rank-r optimum, tail "
      "coefficients, exact pretraining and evaluation losses, Monte Carlo on the test prompts, loss by rank.";
  static featurelab::Schema schema() { return featurelab::Schema{}; }
  static std::vector<std::string> metrics() {
    return {"rel_err", "tail", "pretrain_gap", "eval_loss", "eval_loss_optimal", "mc_loss", "mc_ratio", "r_opt"};
  }
  static featurelab::ContractData contract_data() { return icl_regression_contract(); }
  IclLossVsRank(const featurelab::Params&, featurelab::Context&) {}
  void measure(const featurelab::ProbeInput& in, featurelab::Measurements& out) override;

 private:
  featurelab::Mat predictions_;
};

}  // namespace featurelab::fourier_icl_pack
