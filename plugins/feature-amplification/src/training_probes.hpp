// Probes of what the network does on data (Frei, Chatterji, Bartlett 2022):
//   split-accuracy        Thm. 3.1, Lemma 4.3: train clean accuracy, train noisy misclassification, test error
//                         against noisy and clean labels, realised noise rates, per-cluster clean error
//   margins               Lemma 4.9, eqs. (20), (45): min clean and max noisy training margin, f at ±μ1, ±μ2
//   loss-stats            L̂ and min_i −ℓ′(y_i f(x_i)) (eq. 17: ≥ ½e^{−2} while t ≤ T − 1)
//   reference-agreement   §3 after Thm. 3.1: P(sgn f = sgn(|⟨μ1,x⟩| − |⟨μ2,x⟩|)) on the test set
//   decision-grid         Figure 1: sgn f on a grid of the first two coordinates (table → heatmap)
// A binary model with one output predicts class 1 (y = +1) iff f > 0.
#pragma once

#include "xor_geometry.hpp"

#include <featurelab/probe.hpp>

namespace feature_amplification {

class SplitAccuracy : public featurelab::Probe {
 public:
  static constexpr featurelab::Doc kDoc =
      "train_clean_acc, train_noisy_misclf, test_err_noisy, test_err_clean, realised noise rates and their gap to "
      "the test error, per-cluster clean test error (Frei et al. Thm 3.1).";
  static featurelab::Schema schema() { return featurelab::Schema{}; }
  static featurelab::ContractData contract_data() { return xor_contract(); }
  SplitAccuracy(const featurelab::Params&, featurelab::Context&) {}
  void measure(const featurelab::ProbeInput& in, featurelab::Measurements& out) override;
};

class Margins : public featurelab::Probe {
 public:
  static constexpr featurelab::Doc kDoc =
      "min y f over clean training points, max y f over noisy ones, and f at the cluster centres ±μ1, ±μ2 "
      "(Lemma 4.9).";
  static featurelab::Schema schema() { return featurelab::Schema{}; }
  static featurelab::ContractData contract_data() { return xor_contract(); }
  Margins(const featurelab::Params&, featurelab::Context&) {}
  void measure(const featurelab::ProbeInput& in, featurelab::Measurements& out) override;
};

class LossStats : public featurelab::Probe {
 public:
  static constexpr featurelab::Doc kDoc = "Training logistic loss and min_i −ℓ′(y_i f(x_i)) (Frei et al. eq. 17).";
  static featurelab::Schema schema() { return featurelab::Schema{}; }
  static featurelab::ContractData contract_data() { return xor_contract(); }
  LossStats(const featurelab::Params&, featurelab::Context&) {}
  void measure(const featurelab::ProbeInput& in, featurelab::Measurements& out) override;
};

class ReferenceAgreement : public featurelab::Probe {
 public:
  static constexpr featurelab::Doc kDoc =
      "Fraction of test points where sgn f agrees with the reference sgn(|<μ1,x>| − |<μ2,x>|) (§3).";
  static featurelab::Schema schema() { return featurelab::Schema{}; }
  static featurelab::ContractData contract_data() { return xor_contract(); }
  ReferenceAgreement(const featurelab::Params&, featurelab::Context&) {}
  void measure(const featurelab::ProbeInput& in, featurelab::Measurements& out) override;
};

class DecisionGrid : public featurelab::Probe {
 public:
  static constexpr featurelab::Doc kDoc =
      "sgn f on a resolution × resolution grid of [low, high]² in the first two coordinates (others 0): table "
      "\"sign\", drawn as a heatmap by featurelab plot (Figure 1).";
  static featurelab::Schema schema();
  static featurelab::ContractData contract_data() { return xor_contract(); }
  DecisionGrid(const featurelab::Params& params, featurelab::Context& context);
  void measure(const featurelab::ProbeInput& in, featurelab::Measurements& out) override;

 private:
  double low_, high_;
  featurelab::Index resolution_;
};

}  // namespace feature_amplification
