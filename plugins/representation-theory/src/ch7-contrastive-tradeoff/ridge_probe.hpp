// Probe `ridge-probe` (ch. 7 §7.2.2, Prop. 7.3 / 7.4 / F.8): linear probing with m
// labels on the frozen representation, for each task of multitask-linear, m ∈ `labels`, `trials` draws each.
// A trial draws m samples of task i (z of the task's law, y = u_i*ᵀ z), fits the ridge predictor
//     û = argmin_u Σ_{l≤m} (uᵀφ(x_l) − y_l)² + λ‖u‖²       (λ = 0: the minimum-norm least-squares fit)
// and scores it by its exact population error on task i, E_i[(ûᵀφ(x) − y)²] = Σ_j s_ij² ((WM)ᵀû − u_i*)_j² (s_i the
// task's scales). The regularisation matters: unregularised least squares is invariant to
// how strongly each feature is weighted, so with m ≥ r both representations recover u* exactly and the trade-off
// disappears; the ridge penalty (equivalently the norm bound B_{φ,t} of eq. 7.8) makes down-weighted features cost
// labels, which is the chapter's mechanism: the mixture's representation needs ‖u‖² = v1/α + v2/β instead of ‖u*‖².
// One draw of max(labels) samples per trial and task; the first m of them serve each m (nested).
// Metrics (means over the trials), for the trained representation and, with `reference`, on the same draws for
// the chapter's two ideal representations (Prop. F.8's mixture: 1 on S, 1/T on every P; Prop. 7.4's for target_task):
//   mse.task<i>.m=<m>               (and ideal-mixture.mse…, ideal-specific.mse…; the m=… names plot against m)
//   universality.m=<m>              the mean over all T tasks (the even mixture's weights)
//   ideal-ratio.m=<m>               ideal-mixture / ideal-specific on the target task (the trade-off's size)
//   floor.task<i>                   v_{i,2}: the variance of y_i on P_i — no predictor on a representation without
//                                   P_i does better (Prop. 7.4's "error at least min_u E[ℓ_c(uᵀz_S, y)]")
//   variance.task<i>                E y_i²: the zero predictor's error
//   min_norm2                       B²_{φ,t}: the least ‖u‖² with (WM)ᵀu = u_t* on R_t, i.e. uᵀφ(x) = y on the
//                                   target task up to the U columns (F.68: v1/α + v2/β); −1 when no u realises y
// Table `target`: rows m, columns trained / ideal-mixture / ideal-specific MSE on the target task.
#pragma once

#include "../contract_setups.hpp"

#include <featurelab/probe.hpp>

#include <string>
#include <vector>

namespace featurelab::representation_theory_pack {

class RidgeProbe : public featurelab::Probe {
 public:
  static constexpr featurelab::Doc kDoc =
      "Ridge linear probe with m labels on the frozen linear representation, per task of multitask-linear, scored by the "
      "exact population MSE (chapter 7, Prop 7.3/7.4): label efficiency on the target task, universality over all tasks, "
      "beside the chapter's ideal mixture and task-specific representations.";
  static featurelab::Schema schema();
  static std::vector<std::string> metrics() {
    return {"mse.task*.m=*", "ideal-mixture.mse.task*.m=*", "ideal-specific.mse.task*.m=*", "universality.m=*",
            "ideal-ratio.m=*", "floor.task*", "variance.task*", "min_norm2"};
  }
  static std::map<std::string, featurelab::Value> test_params() {
    return {{"labels", std::vector<std::int64_t>{5, 10}}, {"trials", std::int64_t(2)}};
  }
  static featurelab::ContractData contract_data() { return multitask_contract(); }
  RidgeProbe(const featurelab::Params& params, featurelab::Context& context);
  void measure(const featurelab::ProbeInput& in, featurelab::Measurements& out) override;

 private:
  double lambda_;
  std::vector<featurelab::Index> labels_;
  featurelab::Index trials_, target_task_, total_steps_;
  bool reference_, only_final_;
  std::uint64_t seed_;
};

}  // namespace featurelab::representation_theory_pack
