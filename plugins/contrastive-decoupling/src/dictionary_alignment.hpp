// Probe `dictionary-alignment` (Wen & Li Thm 3.4, Thm C.1, App. A.2): where each neuron's weight lies, with
// α_ij = ⟨w_i, M_j⟩ for the distribution's dictionary (feature "dictionary", d×d1):
//   sparse_fraction[_min,_max]  s_i = Σ_j α_ij²/‖w_i‖² (mean, min and max over neurons; 1 − s_i is on M^⊥)
//   top1                        mean over neurons of max_j |α_ij|/‖w_i‖
//   singletons_<θ>              fraction of neurons with top1 >= θ (single-atom detectors), θ in `thresholds`
//   coverage_<θ>                fraction of atoms j with max_i |α_ij|/‖w_i‖ >= θ
//   sparse_norm, dense_norm     mean ‖MMᵀw_i‖ and ‖M^⊥M^⊥ᵀw_i‖ = √(‖w_i‖² − Σ_j α_ij²); weight_norm mean ‖w_i‖
//   active_atoms[_max], atom_neurons_max   with a positive bias: mean (and largest) |N_i| for N_i = {j : |α_ij| >= b_i},
//                               and the most neurons sharing one atom (Thm 3.4: |N_i| = O(1), o(m/d) neurons per atom)
//   off_support_sqrt_d          with a positive bias: mean over neurons with N_i ≠ ∅ of √d·max_{j∉N_i} |α_ij|/‖w_i‖
//                               (Thm 3.4: α'_ij ≤ o(1/√d)‖w_i‖, so this tends to 0)
//   dense_max_sqrt_d1           mean over neurons of √d1·max_j |⟨w_i, M⊥_j⟩|/‖w_i‖ (Thm 3.4: |β_ij| ≤ o(1/√d1)‖w_i‖;
//                               ≈ √(2 ln d1) for a random w); needs the feature "completion"
// Stage I (Thm C.1) is read off the first evaluation at which the biases turn on (the contrastive-sgd schedule
// evaluates at that step, T1), against the weights at step 0:
//   t1.step, t1.sparse_fraction, t1.sparse_fraction_min,
//   t1.dense_growth   mean_i ‖M^⊥M^⊥ᵀw_i(T1)‖²/‖M^⊥M^⊥ᵀw_i(0)‖² (IH C.4(a): ≈ 1, the dense part does not grow)
//   t1.sparse_rate    mean_i ln(‖MMᵀw_i(T1)‖/‖MMᵀw_i(0)‖)/T1 (App. A.2: ≈ η(p − λ) per step)
// Table "neurons": per neuron [sparse_fraction, top1, best_atom, norm, bias_ratio].
#pragma once

#include "contract_setups.hpp"

#include <featurelab/probe.hpp>

#include <string>
#include <vector>

namespace featurelab::contrastive_decoupling_pack {

class DictionaryAlignment : public featurelab::Probe {
 public:
  static constexpr featurelab::Doc kDoc =
      "Neurons vs the dictionary: sparse-energy fraction Σ_j<w_i,M_j>²/‖w_i‖², top-1 atom, singleton fraction and "
      "atom coverage per threshold, sparse/dense norms, active atoms |N_i|, and Stage I (Thm C.1) at the step the "
      "biases turn on.";
  static featurelab::Schema schema();
  static std::vector<std::string> metrics() {
    return {"sparse_fraction", "sparse_fraction_min", "sparse_fraction_max", "top1", "singletons_*", "coverage_*",
            "sparse_norm", "dense_norm", "weight_norm", "active_atoms", "active_atoms_max", "atom_neurons_max",
            "off_support_sqrt_d", "dense_max_sqrt_d1", "t1.step",
            "t1.sparse_fraction", "t1.sparse_fraction_min", "t1.dense_growth", "t1.sparse_rate"};
  }
  static featurelab::ContractData contract_data() { return sparse_coding_contract(); }
  DictionaryAlignment(const featurelab::Params& params, featurelab::Context& context);
  void measure(const featurelab::ProbeInput& in, featurelab::Measurements& out) override;

 private:
  std::vector<double> thresholds_;
  featurelab::VecD init_sparse2_, init_dense2_;  // per neuron at step 0
  bool biases_were_zero_ = true;
  bool t1_seen_ = false;
};

// Formats a threshold for a metric name: 0.9 -> "0.9", 0.75 -> "0.75".
std::string threshold_name(double theta);

}  // namespace featurelab::contrastive_decoupling_pack
