// Probes of what the first layer learned (Shi 2024 ch. 2, Tables A.1–A.5, Lemma 2.6):
//   pattern-cosine      max_i cos(w_i, v) and max_i cos(w_i, −v) for the ground truth v = Σ_{j∈A} M_j
//                       (the tables' "Cos Similarity" is the first), and the median over neurons of |cos|
//   pattern-components  q_i = M w_i for the neurons nearest ±v: the noise/signal ratio ‖q_{i,−A}‖/‖q_{i,A}‖
//                       (median), whether the q_{i,l}, l ∈ A, share one sign, and their spread max/min
// Both read block W (rows are neurons; the NTK model's W0 + ΔW) and the distribution's features.
#pragma once

#include <featurelab/contract.hpp>
#include <featurelab/probe.hpp>

namespace feature_emergence {

// What the contract test checks the probes of the first layer with: a small dictionary-patterns
// (the ground truth v and the dictionary) and the chapter's truncated network.
inline featurelab::ContractData patterns_contract() {
  return {{"dictionary-patterns",
           {{"dim", std::int64_t(12)}, {"patterns", std::int64_t(6)}, {"relevant", std::int64_t(3)}}},
          {},
          {"truncated-two-layer", {{"width", std::int64_t(8)}}},
          {}};
}

class PatternCosine : public featurelab::Probe {
 public:
  static constexpr featurelab::Doc kDoc =
      "max_i cos(w_i, v) and max_i cos(w_i, −v) for v = Σ_{j∈A} M_j (the distribution's ground_truth), median |cos|.";
  static featurelab::Schema schema() { return featurelab::Schema{}; }
  static featurelab::ContractData contract_data() { return patterns_contract(); }
  PatternCosine(const featurelab::Params&, featurelab::Context&) {}
  void measure(const featurelab::ProbeInput& in, featurelab::Measurements& out) override;
};

class PatternComponents : public featurelab::Probe {
 public:
  static constexpr featurelab::Doc kDoc =
      "For the neurons with |cos(w, v)| >= near (default 0.5): median ‖q_{−A}‖/‖q_A‖ (q = M w), the fraction whose "
      "relevant components share one sign, and the median spread max/min |q_A| (Lemma 2.6).";
  static featurelab::Schema schema();
  static featurelab::ContractData contract_data() { return patterns_contract(); }
  PatternComponents(const featurelab::Params& params, featurelab::Context& context);
  void measure(const featurelab::ProbeInput& in, featurelab::Measurements& out) override;

 private:
  double near_;
};

// The first-layer weights of a model: W, or W0 + dW for the linearised model.
featurelab::Mat first_layer(const featurelab::Model& model, const std::string& who);

}  // namespace feature_emergence
