// Probe `linear-probe` (Wen & Li Def. 3.1, Cor. 3.3 and 3.5): the downstream task on a frozen representation.
// Fits a linear predictor ŷ = wᵀf(x) + c of a per-sample target (a meta column; the sparse-coding distribution's
// target = ⟨w*, z⟩) on the training split and scores it on the test split:
//   regression       ridge, w = (FᵀF + λ·tr(FᵀF)/D·I)⁻¹Fᵀy on centred F, y (λ = ridge, relative to the features'
//                    scale so one value serves f(x) and raw x); r2 = 1 − MSE/Var(y) on test, mse, and
//                    sign_accuracy = sign agreement on the samples with target ≠ 0 (z ≠ 0; sign(0) is undefined)
//   classification   ridge-penalised logistic regression of sign(target) by Newton's method, on the samples with
//                    target ≠ 0; accuracy on test
// The same on the raw inputs x (metrics *.raw): the paper's comparison, linear-in-x predictors cannot remove the
// dense noise (population optimum R² = p/(p + σ_ξ²), recorded as linear_optimum when the distribution gives
// p and σ_ξ²). With `labels`, also fitted on the first n training samples for each n (metrics *.n<n>): the
// label-efficiency curve. Everything in double.
#pragma once

#include "contract_setups.hpp"

#include <featurelab/probe.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace featurelab::contrastive_decoupling_pack {

class LinearProbe : public featurelab::Probe {
 public:
  static constexpr featurelab::Doc kDoc =
      "Ridge regression (or ridge logistic classification of the sign) of a meta target on the frozen representation "
      "and on raw x, fitted on train, scored on test (R², sign accuracy); optionally by number of labelled samples.";
  static featurelab::Schema schema();
  // <metric>, <metric>.raw (on x), <metric>.n<n> and <metric>.raw.n<n> (the first n labels; r2 or accuracy only).
  static std::vector<std::string> metrics() {
    return {"r2", "r2.raw", "r2.n*", "r2.raw.n*", "mse", "mse.raw", "sign_accuracy", "sign_accuracy.raw",
            "accuracy", "accuracy.raw", "accuracy.n*", "accuracy.raw.n*", "linear_optimum"};
  }
  static featurelab::ContractData contract_data() { return sparse_coding_contract(); }
  LinearProbe(const featurelab::Params& params, featurelab::Context& context);
  void measure(const featurelab::ProbeInput& in, featurelab::Measurements& out) override;

 private:
  // Fits on (F, y) train rows [0, n) and scores on test; writes metrics with the suffix.
  void fit_and_score(const featurelab::MatD& F, const featurelab::VecD& y, featurelab::Index n,
                     const featurelab::MatD& Ft, const featurelab::VecD& yt, const std::string& suffix,
                     featurelab::Measurements& out) const;

  std::string hook_, target_;
  bool classify_, raw_, only_final_;
  double ridge_;
  std::vector<featurelab::Index> labels_;
  featurelab::Index total_steps_;
  std::optional<featurelab::Measurements> raw_fits_;  // the raw-input metrics, for the inputs fingerprinted raw_key_
  std::uint64_t raw_key_ = 0;
};

}  // namespace featurelab::contrastive_decoupling_pack
