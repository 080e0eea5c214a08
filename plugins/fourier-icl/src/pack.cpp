// Pack fourier-icl: Shi 2024 dissertation (University of Wisconsin–Madison) chapters 4, 5 and 9 — Fourier
// circuits for k-input modular addition (this file's first components), in-context learning and GemFilter.
#include "fourier_probes.hpp"
#include "gemfilter.hpp"
#include "needle_retrieval.hpp"
#include "icl_probe.hpp"
#include "icl_regression.hpp"
#include "icl_sparse_parity.hpp"
#include "linear_self_attention.hpp"
#include "multihead_relu_attention.hpp"
#include "parity_probes.hpp"
#include "transformer.hpp"
#include "transformer_probes.hpp"
#include "modular_sum.hpp"
#include "poly_one_hidden_layer.hpp"

#include <featurelab/pack.hpp>

using namespace fourier_icl;

FEATURELAB_PACK("fourier-icl", "0.1.0") {
  pack.add<ModularSum>("modular-sum");
  pack.add<PolyOneHiddenLayer>("poly-one-hidden-layer");
  pack.add<FourierMaxMargin>("fourier-max-margin");
  pack.add<FourierNeuronSpectrum>("fourier-neuron-spectrum");
  pack.add<NormalizedMargin>("normalized-margin");
  pack.add<IclLinearRegression>("icl-linear-regression");
  pack.add<LinearSelfAttention>("linear-self-attention");
  pack.add<IclLossVsRank>("icl-loss-vs-rank");
  pack.add<IclSparseParity>("icl-sparse-parity");
  pack.add<MultiheadReluAttention>("multihead-relu-attention");
  pack.add<ParityCoverage>("parity-coverage");
  pack.add<Transformer>("transformer");
  pack.add<AttentionFourier2d>("attention-fourier-2d");
  pack.add<GrokkingTiming>("grokking-timing");
  pack.add<NeedleRetrieval>("needle-retrieval");
  pack.add<GemfilterSelection>("gemfilter-selection");
  pack.add<ParityNoiseProjection>("parity-noise-projection");
}
