// Probe `lucky-neuron-sets` (Wen & Li Def. B.1, Lemma B.2(c), Induction Hypothesis D.1 / Lemma E.x(1)): the
// neurons that the proofs follow from initialisation. With α_ij = ⟨w_i, M_j⟩ and s_i = ‖MMᵀw_i‖² at step 0,
//   𝓜_j  = {i : α_ij⁽⁰⁾² >= c2·ln d/d·s_i}                    (the candidates for atom j)
//   𝓜*_j = {i : α_ij⁽⁰⁾² >= c1·ln d/d·s_i, α_ij'⁽⁰⁾² <= c2·ln d/d·s_i for every j' ≠ j}   (the lucky neurons)
// with c1 = 2 + 2(1 − γ)c0 and c2 = c1 − γc0. The sets are fixed at the first measurement, which must be at step 0.
// At step 0: lucky_atoms (fraction of atoms with 𝓜*_j ≠ ∅), lucky_per_atom (mean |𝓜*_j|), candidates_max
// (max_j |𝓜_j|; Lemma B.2(c): |𝓜*_j| >= Ω(d^{γc0/4}), |𝓜_j| <= O(d^{2γc0}), i.e. both O(1) at any d we run).
// At every step:
//   lucky_alignment      mean over the pairs i ∈ 𝓜*_j of |α_ij|/‖w_i‖ (the proofs: Ω(1) after Stage II)
//   other_alignment      the same top-1 alignment max_j |α_ij|/‖w_i‖ for the neurons in no 𝓜_j (the comparison)
//   lucky_singletons     fraction of the pairs i ∈ 𝓜*_j whose neuron is a θ-singleton on atom j
//   singletons_from_candidates   fraction of the θ-singletons (on their top atom j) that were in 𝓜_j at step 0
#pragma once

#include "contract_setups.hpp"

#include <featurelab/probe.hpp>

#include <string>
#include <utility>
#include <vector>

namespace featurelab::contrastive_decoupling_pack {

class LuckyNeuronSets : public featurelab::Probe {
 public:
  static constexpr featurelab::Doc kDoc =
      "Def. B.1's lucky neurons 𝓜*_j and candidates 𝓜_j, fixed at step 0 from the weights' atom coefficients, and "
      "what became of them: their alignment with their atom, how many became its singletons, and how many "
      "singletons came from the candidates.";
  static featurelab::Schema schema();
  static std::vector<std::string> metrics() {
    return {"lucky_atoms", "lucky_per_atom", "candidates_max", "lucky_alignment", "other_alignment",
            "lucky_singletons", "singletons_from_candidates"};
  }
  static featurelab::ContractData contract_data() { return sparse_coding_contract(); }
  LuckyNeuronSets(const featurelab::Params& params, featurelab::Context& context);
  void measure(const featurelab::ProbeInput& in, featurelab::Measurements& out) override;

 private:
  double c0_, gamma_, theta_;
  bool fixed_ = false;
  std::vector<std::pair<featurelab::Index, featurelab::Index>> lucky_;  // (neuron i, atom j) with i ∈ 𝓜*_j
  featurelab::MatD candidate_;                                            // m×d, 1 where i ∈ 𝓜_j
  std::vector<featurelab::Index> others_;                                 // neurons in no 𝓜_j
};

}  // namespace featurelab::contrastive_decoupling_pack
