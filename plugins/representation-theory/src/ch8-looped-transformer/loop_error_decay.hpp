// Probe `loop-error-decay` (Shi 2024 ch. 8, Thms. 8.16 and 8.25, Fig. 8.1): how
// fast the looped transformer's implicit iterate θ^(t) = −q^(t)/α (TF_t = αθ^(t), Thm. 8.14) reaches the hidden task θ*,
// loop by loop, against the chapter's bound and the exact rate of gradient descent on a quadratic. Per test prompt,
// with e_t = ‖θ^(t) − θ*‖² / ‖θ^(0) − θ*‖² (natural logs, as Fig. 8.1) and κ its condition number:
//   Thm. 8.25   ln e_t ≤ −t/κ;      exact GD         ln e_t ≤ 2t·ln(1 − 1/κ);
//   Thm. 8.16   |⟨TF_t, θ*⟩ − α| ≤ |α| e^{−t/(2κ)}.
// Below `floor` (a normalised squared error) float64 rounding, not gradient descent, sets the error (it
// saturates near 1e-31; we see 1e-32 … 1e-35, and exact hits of θ*, logged at one ulp of θ*'s smallest coordinate),
// so each bound is checked as max(bound, ln floor) (and ½ ln floor for the prediction error).
// Scalars (means over the prompts unless said):
//   log_err.t=K, theory.t=K, exact_gd.t=K   ln e_K, −K/κ, 2K ln(1 − 1/κ) at each K of `at` (a family: one curve of
//                                           each against the loop count per sweep point in `featurelab plot`)
//   theory_slack, exact_gd_slack, pred_slack  max over prompts and loops t ≥ 1 of (measured − clipped bound), in
//                                             nats: ≤ 0 where the bound holds, the margin when negative
//   rate, theory_rate, exact_gd_rate          ln e_t / t at the first loop at the floor (T if none), −1/κ, 2 ln(1 − 1/κ)
//   log_err_final, at_floor                   ln e_T; the fraction of prompts with e_T ≤ floor
//   floor_level                               max over prompts of ln e_T: where the least converged one stopped
//   pred_err_final                            max over prompts of |⟨TF_T, θ*⟩ − α| / |α|
// Table `curve` (columns x, y, series: `featurelab plot` draws it as a scatter, one panel per sweep point): every loop
// t = 0 … T, the mean ln e_t (series 0) beside the mean of max(−t/κ, ln floor) (1) and of max(2t ln(1 − 1/κ), ln floor)
// (2): the bounds as checked, drawn until every prompt's is at the floor. The scalars theory.t=K, exact_gd.t=K are the
// bare bounds (the chapter's theory lines).
#pragma once

#include "../contract_setups.hpp"

#include <featurelab/probe.hpp>

#include <string>
#include <vector>

namespace featurelab::representation_theory_pack {

class LoopErrorDecay : public featurelab::Probe {
 public:
  static constexpr featurelab::Doc kDoc =
      "Log normalised error ‖θ^(t) − θ*‖² of the looped transformer per loop vs −t/κ (Thm. 8.25) and 2t ln(1 − 1/κ) "
      "(exact GD), the prediction error vs |α|e^{−t/(2κ)} (Thm. 8.16), the float64 floor; table `curve` for Fig. 8.1.";
  static featurelab::Schema schema();
  static std::vector<std::string> metrics() {
    return {"log_err.t=*", "theory.t=*", "exact_gd.t=*", "theory_slack", "exact_gd_slack", "pred_slack", "rate",
            "theory_rate", "exact_gd_rate", "log_err_final", "floor_level", "at_floor", "pred_err_final"};
  }
  static std::map<std::string, featurelab::Value> test_params() { return {{"at", std::vector<std::int64_t>{5, 10}}}; }
  static featurelab::ContractData contract_data() { return looped_contract(); }
  LoopErrorDecay(const featurelab::Params& params, featurelab::Context& context);
  void measure(const featurelab::ProbeInput& in, featurelab::Measurements& out) override;

 private:
  std::vector<std::int64_t> at_;
  double floor_;
};

}  // namespace featurelab::representation_theory_pack
