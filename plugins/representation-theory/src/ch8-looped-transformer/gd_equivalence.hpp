// Probe `gd-equivalence` (Shi 2024 ch. 8, Lemma 8.13, Thm. 8.14): the looped transformer's
// output after every loop t against t steps of plain gradient descent on the prompt's least squares, computed
// independently (least_squares.hpp) with the same η from θ^(0) = −q^(0)/α. Over the test prompts:
//   max_diff, max_rel_diff   max_{prompt, t ≤ T, j} |TF_t − αθ^(t)|_j, and the same divided by |α| (in double: ≤ 1e-9)
//   rows_changed             entries of rows 1..n of Z^(T) that differ from Z^(0) in any bit (the mask: 0)
//   alpha_changed            prompts whose α cell Z^(T)[n+1, d+1] is not α bit for bit (P's zero column: 0)
//   lemma_diff               max |Attn(Z) − [[0, 0], [qᵀXᵀX + αyᵀX, 0]]| over Z = Z^(0) and Z^(T), relative to the
//                            closed form's largest entry (Lemma 8.13, which holds for any q)
//   attn_outside             entries of those attention outputs outside the q slot that are not exactly 0
// Table `prompts`: per prompt rel_diff, rows_changed, alpha_changed, eta.
#pragma once

#include "../contract_setups.hpp"

#include <featurelab/probe.hpp>

#include <string>
#include <vector>

namespace featurelab::representation_theory_pack {

class GdEquivalence : public featurelab::Probe {
 public:
  static constexpr featurelab::Doc kDoc =
      "Looped transformer vs gradient descent (Thm. 8.14): max |TF_t − αθ^(t)| over every loop and prompt, rows 1..n "
      "and the α cell unchanged bit for bit, the attention against Lemma 8.13's closed form.";
  static featurelab::Schema schema() { return featurelab::Schema{}; }
  static std::vector<std::string> metrics() {
    return {"max_diff", "max_rel_diff", "rows_changed", "alpha_changed", "lemma_diff", "attn_outside"};
  }
  static featurelab::ContractData contract_data() { return looped_contract(); }
  GdEquivalence(const featurelab::Params&, featurelab::Context&) {}
  void measure(const featurelab::ProbeInput& in, featurelab::Measurements& out) override;
};

}  // namespace featurelab::representation_theory_pack
