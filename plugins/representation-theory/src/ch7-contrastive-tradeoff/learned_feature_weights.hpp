// Probe `learned-feature-weights` (ch. 7, §7.2.2): how strongly the representation encodes each hidden
// feature, D_j = ‖φ(M e_j)‖² = [(WM)ᵀ(WM)]_jj, and its means over the groups S, P_0 … P_{T−1}, U.
// The chapter's predictions (σ = 1, r = 2s): pretrained on the even mixture, S → α = 1, every P_t → β = 1/T,
// U → 0 (Prop. 7.3 / F.8, Thm 7.2(1)); on task t alone, S and P_t → 1, the rest → 0 (Prop. 7.4); fine-tuned on t
// from the mixture's W* inside ‖W − W*‖_F ≤ γ, P_t → (√(1/T) + γ/√s)² (Prop. F.9).
// Metrics: S, P<t>, U (group means), U_max, P_rest (the mean over the P_t with t ≠ target_task), fro2 = Σ_j D_j
// (= ‖W‖_F² since M is orthonormal), offdiag = the largest off-diagonal share ‖offdiag‖_F/‖·‖_F of (WM)ᵀ(WM) on a
// task's R_t = S ∪ P_t — 0 when φ∘g = Q·diag(a)·z on every task's features as Lemma F.3's optimum has it (weighted,
// never mixed) — and offdiag_tasks, the same share among all private features: the private features of different
// tasks are never active together, so the mixture loss does not see whether they share directions (Lemma F.3's form
// is one optimum of many there).
// Tables: `weights` (one row per hidden feature: its D_j) and `groups` (one row per measured step: the group means,
// the whole history, so its heat map is the group weights against step).
#pragma once

#include "../contract_setups.hpp"

#include <featurelab/probe.hpp>

#include <string>
#include <vector>

namespace featurelab::representation_theory_pack {

class LearnedFeatureWeights : public featurelab::Probe {
 public:
  static constexpr featurelab::Doc kDoc =
      "Feature weights D = diag((WM)ᵀ(WM)) of a linear representation on multitask-linear data: group means over S, "
      "each P_t, U (chapter 7, Prop 7.3/7.4/F.9 predict 1, 1/T, 0), the off-diagonal share, and the history per group.";
  static featurelab::Schema schema();
  static std::vector<std::string> metrics() {
    return {"S", "P[0-9]*", "U", "P_rest", "U_max", "fro2", "offdiag", "offdiag_tasks"};
  }
  static featurelab::ContractData contract_data() { return multitask_contract(); }
  LearnedFeatureWeights(const featurelab::Params& params, featurelab::Context& context);
  void measure(const featurelab::ProbeInput& in, featurelab::Measurements& out) override;

 private:
  featurelab::Index target_task_;
  std::vector<std::string> columns_;        // S, P0, …, U
  std::vector<featurelab::Index> steps_;    // history rows
  std::vector<std::vector<double>> history_;
};

}  // namespace featurelab::representation_theory_pack
