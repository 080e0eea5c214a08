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
  pack.add<ModularSum>("modular-sum", ModularSum::kDoc, ModularSum::schema());
  pack.add<PolyOneHiddenLayer>("poly-one-hidden-layer", PolyOneHiddenLayer::kDoc, PolyOneHiddenLayer::schema());
  pack.add<FourierMaxMargin>("fourier-max-margin", FourierMaxMargin::kDoc, FourierMaxMargin::schema());
  pack.add<FourierNeuronSpectrum>("fourier-neuron-spectrum", FourierNeuronSpectrum::kDoc, FourierNeuronSpectrum::schema());
  pack.add<NormalizedMargin>("normalized-margin", NormalizedMargin::kDoc, NormalizedMargin::schema());
  pack.add<IclLinearRegression>("icl-linear-regression", IclLinearRegression::kDoc, IclLinearRegression::schema());
  pack.add<LinearSelfAttention>("linear-self-attention", LinearSelfAttention::kDoc, LinearSelfAttention::schema());
  pack.add<IclLossVsRank>("icl-loss-vs-rank", IclLossVsRank::kDoc, IclLossVsRank::schema());
  pack.add<IclSparseParity>("icl-sparse-parity", IclSparseParity::kDoc, IclSparseParity::schema());
  pack.add<MultiheadReluAttention>("multihead-relu-attention", MultiheadReluAttention::kDoc, MultiheadReluAttention::schema());
  pack.add<ParityCoverage>("parity-coverage", ParityCoverage::kDoc, ParityCoverage::schema());
  pack.add<Transformer>("transformer", Transformer::kDoc, Transformer::schema());
  pack.add<AttentionFourier2d>("attention-fourier-2d", AttentionFourier2d::kDoc, AttentionFourier2d::schema());
  pack.add<GrokkingTiming>("grokking-timing", GrokkingTiming::kDoc, GrokkingTiming::schema());
  pack.add<NeedleRetrieval>("needle-retrieval", NeedleRetrieval::kDoc, NeedleRetrieval::schema());
  pack.add<GemfilterSelection>("gemfilter-selection", GemfilterSelection::kDoc, GemfilterSelection::schema());
  pack.add<ParityNoiseProjection>("parity-noise-projection", ParityNoiseProjection::kDoc, ParityNoiseProjection::schema());
}
