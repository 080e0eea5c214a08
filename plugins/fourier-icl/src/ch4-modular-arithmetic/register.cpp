// Chapter 4: Fourier features for k-input modular addition (the MLP of Eq. 4.2, its L_{2,k+1} penalty of Def. 4.1 and the transformers' probes).
#include "chapters.hpp"
#include "attention_fourier_2d.hpp"
#include "fourier_max_margin.hpp"
#include "fourier_neuron_spectrum.hpp"
#include "grokking_timing.hpp"
#include "modular_sum.hpp"
#include "neuron_norm.hpp"
#include "normalized_margin.hpp"
#include "poly_one_hidden_layer.hpp"

namespace featurelab::fourier_icl_pack {

void add_modular_arithmetic(PackBuilder& pack) {
  pack.add<ModularSum>("modular-sum");
  pack.add<PolyOneHiddenLayer>("poly-one-hidden-layer");
  pack.add<FourierMaxMargin>("fourier-max-margin");
  pack.add<FourierNeuronSpectrum>("fourier-neuron-spectrum");
  pack.add<NormalizedMargin>("normalized-margin");
  pack.add<NeuronNorm>("neuron-norm");
  pack.add<AttentionFourier2d>("attention-fourier-2d");
  pack.add<GrokkingTiming>("grokking-timing");
}

}  // namespace featurelab::fourier_icl_pack
