// Chapter 6's probes.
//   ood-accuracy     accuracy on the test split (in-domain) and on the distribution's out-of-domain set
//     (features ood_inputs / ood_labels), and err_ood / err_id (7/3 for any bias-free linear
//     classifier on dg-toy-2d with both weights positive).
//   stable-rank      singular values of a hook point's feature matrix on a split (train, test or ood), or of a
//     parameter block (`block`):
//     stable rank ‖F‖_F²/‖F‖_2² (the standard one; `printed` = ‖F‖_F²/‖F‖_2 as Sec. 6.3.3 prints it,
//     not scale-invariant), ‖F‖_*/N, σ2/σ1; table `singular_values`.
//   feature-support  weights of a 1×d block on the invariant coordinates R vs the environmental U
//     (feature "invariant"): α̂ = mean_R w, β̂ = mean_U w, α̂/β̂, nonzero counts, whether the support
//     lies in R (Lemma 6.2 / Prop. 6.3), Lemma 6.1's bounds 3/(4γ) and 1/√r beside them.
#pragma once

#include "contract_setups.hpp"

#include <featurelab/probe.hpp>

namespace representation_theory {

class OodAccuracy : public featurelab::Probe {
 public:
  static constexpr featurelab::Doc kDoc =
      "In-domain (test split) and out-of-domain (features ood_inputs / ood_labels) accuracy, and err_ood/err_id.";
  static featurelab::Schema schema();
  static featurelab::ContractData contract_data() { return dg_toy_contract(); }
  OodAccuracy(const featurelab::Params& params, featurelab::Context& context);
  void measure(const featurelab::ProbeInput& in, featurelab::Measurements& out) override;

 private:
  featurelab::Mat scores_;
};

class StableRank : public featurelab::Probe {
 public:
  static constexpr featurelab::Doc kDoc =
      "Singular values of a hook point's feature matrix on a split: stable rank (standard and as printed), "
      "nuclear norm / N, σ2/σ1.";
  static featurelab::Schema schema();
  static featurelab::ContractData contract_data() { return dg_toy_contract(); }
  StableRank(const featurelab::Params& params, featurelab::Context& context);
  void measure(const featurelab::ProbeInput& in, featurelab::Measurements& out) override;

 private:
  std::string hook_, block_, split_;
  featurelab::Mat features_;
};

class FeatureSupport : public featurelab::Probe {
 public:
  static constexpr featurelab::Doc kDoc =
      "Weights on the invariant vs environmental features (α̂, β̂, α̂/β̂, support counts) against Lemma 6.1's bounds.";
  static featurelab::Schema schema();
  static featurelab::ContractData contract_data() { return dg_theory_contract(); }
  FeatureSupport(const featurelab::Params& params, featurelab::Context& context);
  void measure(const featurelab::ProbeInput& in, featurelab::Measurements& out) override;

 private:
  std::string block_;
  double tol_;
};

}  // namespace representation_theory
