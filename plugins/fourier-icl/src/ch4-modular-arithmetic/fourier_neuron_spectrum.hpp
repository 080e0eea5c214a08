// Probe of the modular-addition network's weights (Shi 2024 ch. 4, Figs. 4.1–4.2, Lemma 4.10).
// Reads blocks U (m×kp) and W (m×p) of poly-one-hidden-layer (k = columns of U / columns of W).
//   fourier-neuron-spectrum   per neuron the one-sided DFT power P(ζ) = |û(ζ)|², ζ = 0 … (p−1)/2, of each u_{i,j}
//     and of w_i, summed (a pure cosine then has max-normalised power 1; two-sided it would be 1/2); over the
//     active neurons (‖θ_i‖ >= active·max_i ‖θ_i‖): mnp_mean / mnp_min of max_ζ P/Σ_ζ P, the dominant frequency
//     ζ*_i = argmax P and how the frequencies 1 … (p−1)/2 are covered (covered, min_per_frequency, entropy = the
//     histogram's normalised entropy; covered_single: the frequencies used by an active neuron with max-normalised
//     power >= single, 0.9, and missing_single = (p−1)/2 − covered_single), and the phase residual wrap(Σ_j arg û_{i,j}(ζ*) − arg ŵ_i(ζ*)) of Lemma 4.10's
//     condition θ_1 + … + θ_k = θ_w (phase_mean, phase_max, in radians); mnp_all over every neuron. Tables:
//     frequencies (neurons per dominant ζ) and spectra (the normalised summed spectra of up to `neurons` active
//     neurons, for a heat map).
#pragma once

#include "common/contract_setups.hpp"

#include <featurelab/probe.hpp>

#include <string>
#include <vector>

namespace featurelab::fourier_icl_pack {

class FourierNeuronSpectrum : public featurelab::Probe {
 public:
  static constexpr featurelab::Doc kDoc =
      "One-sided DFT power of each neuron's u_{i,1..k} and w_i (summed): max-normalised power over active neurons, "
      "dominant-frequency coverage and entropy, phase residual Σθ_j − θ_w at the dominant frequency (Shi 2024 ch. 4).";
  static featurelab::Schema schema();
  static std::vector<std::string> metrics() {
    return {"active", "mnp_mean", "mnp_min", "mnp_all", "covered", "covered_single", "missing_single", "min_per_frequency", "entropy",
            "phase_mean", "phase_max"};
  }
  static featurelab::ContractData contract_data() { return modular_mlp_contract(); }
  FourierNeuronSpectrum(const featurelab::Params& params, featurelab::Context& context);
  void measure(const featurelab::ProbeInput& in, featurelab::Measurements& out) override;

 private:
  double active_;
  double single_;  // the max-normalised power from which a neuron counts as single-frequency
  featurelab::Index neurons_;
};

}  // namespace featurelab::fourier_icl_pack
