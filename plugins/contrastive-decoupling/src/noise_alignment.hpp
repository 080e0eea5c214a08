// Probe `noise-alignment` (Wen & Li Thm 3.2, the remark after Thm 3.4): the representation f on the test split,
// with x = Mz + ξ split by the sample's code z:
//   cos_noise = mean cos(f(x), f(ξ)) (samples with f(x), f(ξ) ≠ 0; without augmentation → 1),
//   relative_error = mean ‖f(x) − f(Mz)‖/‖f(Mz)‖ (samples with f(Mz) ≠ 0; with augmentation Õ(1/√d)),
//   error = mean ‖f(x) − f(Mz)‖, signal_norm = mean ‖f(Mz)‖, error_ratio = error/signal_norm (every sample: the
//   scale-free form of the absolute bound ‖f(x) − f(Mz)‖ ≤ Õ(1/√d) against ‖f(Mz)‖ ≥ Ω(1)), and zero_signal /
//   zero_noise, the fractions of samples whose f(Mz) / f(ξ) is exactly 0.
#pragma once

#include "contract_setups.hpp"

#include <featurelab/probe.hpp>

#include <string>
#include <vector>

namespace featurelab::contrastive_decoupling_pack {

class NoiseAlignment : public featurelab::Probe {
 public:
  static constexpr featurelab::Doc kDoc =
      "On test x = Mz + ξ: mean cos(f(x), f(ξ)), mean ‖f(x) − f(Mz)‖/‖f(Mz)‖ and the zero fractions (needs the "
      "sparse-coding distribution's codes and dictionary).";
  static featurelab::Schema schema();
  static std::vector<std::string> metrics() {
    return {"cos_noise", "relative_error", "error", "error_ratio", "signal_norm", "zero_signal", "zero_noise"};
  }
  static featurelab::ContractData contract_data() { return sparse_coding_contract(); }
  NoiseAlignment(const featurelab::Params& params, featurelab::Context& context);
  void measure(const featurelab::ProbeInput& in, featurelab::Measurements& out) override;

 private:
  std::string hook_;
  featurelab::Mat fx_, fs_, fn_, signal_, noise_;
};

}  // namespace featurelab::contrastive_decoupling_pack
