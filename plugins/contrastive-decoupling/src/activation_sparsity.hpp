// Probe `activation-sparsity` (Wen & Li Fact E.3; the paper's Fig. 4 on real data): the representation f on the
// test split: density = mean fraction of nonzero entries of f(x); rate_max / rate_median = the largest / median
// per-neuron firing rate; dead = the fraction of neurons that never fire. Any model: its output or a hook's
// activations.
#pragma once

#include "contract_setups.hpp"

#include <featurelab/probe.hpp>

#include <string>
#include <vector>

namespace featurelab::contrastive_decoupling_pack {

class ActivationSparsity : public featurelab::Probe {
 public:
  static constexpr featurelab::Doc kDoc =
      "On the test split: the fraction of nonzero entries of the representation (the model's output, or a hook), the "
      "largest and median per-neuron firing rate, and the fraction of neurons that never fire.";
  static featurelab::Schema schema();
  static std::vector<std::string> metrics() { return {"density", "rate_max", "rate_median", "dead"}; }
  static featurelab::ContractData contract_data() { return sparse_coding_contract(); }
  ActivationSparsity(const featurelab::Params& params, featurelab::Context& context);
  void measure(const featurelab::ProbeInput& in, featurelab::Measurements& out) override;

 private:
  std::string hook_;
  featurelab::Mat f_;
};

}  // namespace featurelab::contrastive_decoupling_pack
