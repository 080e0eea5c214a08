// Probes of the representation f on the test split:
//   noise-alignment      (Thm 3.2, the remark after Thm 3.4) with x = Mz + ξ split by the sample's code z:
//                        cos_noise = mean cos(f(x), f(ξ)) (samples with f(x), f(ξ) ≠ 0; without augmentation
//                        → 1), relative_error = mean ‖f(x) − f(Mz)‖/‖f(Mz)‖ (samples with f(Mz) ≠ 0; with
//                        augmentation Õ(1/√d)), error = mean ‖f(x) − f(Mz)‖, signal_norm = mean ‖f(Mz)‖, and
//                        zero_signal / zero_noise, the fractions of samples whose f(Mz) / f(ξ) is exactly 0.
//   activation-sparsity  (Fact E.3; the paper's Fig. 4 on real data) density = mean fraction of nonzero entries
//                        of f(x); rate_max / rate_median = the largest / median per-neuron firing rate; dead = the
//                        fraction of neurons that never fire. Any model: its output or a hook's activations.
#pragma once

#include "contract_setups.hpp"

#include <featurelab/probe.hpp>

#include <string>

namespace contrastive_decoupling {

class NoiseAlignment : public featurelab::Probe {
 public:
  static constexpr featurelab::Doc kDoc =
      "On test x = Mz + ξ: mean cos(f(x), f(ξ)), mean ‖f(x) − f(Mz)‖/‖f(Mz)‖ and the zero fractions (needs the "
      "sparse-coding distribution's codes and dictionary).";
  static featurelab::Schema schema();
  static featurelab::ContractData contract_data() { return sparse_coding_contract(); }
  NoiseAlignment(const featurelab::Params& params, featurelab::Context& context);
  void measure(const featurelab::ProbeInput& in, featurelab::Measurements& out) override;

 private:
  std::string hook_;
  featurelab::Mat fx_, fs_, fn_, signal_, noise_;
};

class ActivationSparsity : public featurelab::Probe {
 public:
  static constexpr featurelab::Doc kDoc =
      "On the test split: the fraction of nonzero entries of the representation (the model's output, or a hook), the "
      "largest and median per-neuron firing rate, and the fraction of neurons that never fire.";
  static featurelab::Schema schema();
  static featurelab::ContractData contract_data() { return sparse_coding_contract(); }
  ActivationSparsity(const featurelab::Params& params, featurelab::Context& context);
  void measure(const featurelab::ProbeInput& in, featurelab::Measurements& out) override;

 private:
  std::string hook_;
  featurelab::Mat f_;
};

}  // namespace contrastive_decoupling
