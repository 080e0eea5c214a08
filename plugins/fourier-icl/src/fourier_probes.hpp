// Probes of the modular-addition network's weights (Shi 2024 ch. 4, Figs. 4.1–4.2, Lemmas 4.10/C.20, Thm. 4.9).
// Both read blocks U (m×kp) and W (m×p) of poly-one-hidden-layer (k = columns of U / columns of W).
//   fourier-neuron-spectrum   per neuron the one-sided DFT power P(ζ) = |û(ζ)|², ζ = 0 … (p−1)/2, of each u_{i,j}
//     and of w_i, summed (a pure cosine then has max-normalised power 1; two-sided it would be 1/2); over the
//     active neurons (‖θ_i‖ >= active·max_i ‖θ_i‖): mnp_mean / mnp_min of max_ζ P/Σ_ζ P, the dominant frequency
//     ζ*_i = argmax P and how the frequencies 1 … (p−1)/2 are covered (covered, min_per_frequency, entropy = the
//     histogram's normalised entropy), and the phase residual wrap(Σ_j arg û_{i,j}(ζ*) − arg ŵ_i(ζ*)) of Lemma 4.10's
//     condition θ_1 + … + θ_k = θ_w (phase_mean, phase_max, in radians); mnp_all over every neuron. Tables:
//     frequencies (neurons per dominant ζ) and spectra (the normalised summed spectra of up to `neurons` active
//     neurons, for a heat map).
//   normalized-margin   min over the FULL table D_p of f[y] − max_{c≠y} f[c], over ‖θ‖_{2,k+1}^{k+1} (margin), γ*(k, p)
//     (gamma_star), their ratio (ratio: <= 1 for every network, Thm. 4.9), the class-weighted mean margin
//     (weighted) and the accuracy over D_p (accuracy_table); ratio_max, the largest ratio at any evaluation so far;
//     ratio_train, the same minimum over the training split only (what our reference runs measured).
#pragma once

#include "contract_setups.hpp"

#include <featurelab/probe.hpp>

#include <limits>

namespace fourier_icl {

class FourierNeuronSpectrum : public featurelab::Probe {
 public:
  static constexpr featurelab::Doc kDoc =
      "One-sided DFT power of each neuron's u_{i,1..k} and w_i (summed): max-normalised power over active neurons, "
      "dominant-frequency coverage and entropy, phase residual Σθ_j − θ_w at the dominant frequency (Shi 2024 ch. 4).";
  static featurelab::Schema schema();
  static featurelab::ContractData contract_data() { return modular_mlp_contract(); }
  FourierNeuronSpectrum(const featurelab::Params& params, featurelab::Context& context);
  void measure(const featurelab::ProbeInput& in, featurelab::Measurements& out) override;

 private:
  double active_;
  featurelab::Index neurons_;
};

class NormalizedMargin : public featurelab::Probe {
 public:
  static constexpr featurelab::Doc kDoc =
      "Minimum margin over the full table D_p divided by ‖θ‖_{2,k+1}^{k+1}, against γ*(k, p) (Shi 2024 Thm. 4.9); "
      "the class-weighted mean margin and the accuracy over D_p.";
  static featurelab::Schema schema() { return featurelab::Schema{}; }
  static featurelab::ContractData contract_data() { return modular_mlp_contract(); }
  NormalizedMargin(const featurelab::Params&, featurelab::Context&) {}
  void measure(const featurelab::ProbeInput& in, featurelab::Measurements& out) override;

 private:
  double ratio_max_ = -std::numeric_limits<double>::infinity();
  featurelab::Mat logits_;
};

// The network's U and W as double, and k; throws naming the probe when the model is not poly-one-hidden-layer.
void modular_weights(const featurelab::Model& model, const std::string& who, featurelab::MatD& U, featurelab::MatD& W, int& k);

}  // namespace fourier_icl
