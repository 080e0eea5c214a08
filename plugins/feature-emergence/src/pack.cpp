// Pack feature-emergence: Shi 2024 (dissertation) chapter 2, "A Theoretical Analysis on Feature
// Learning in Neural Networks: Emergence from Inputs and Advantage over Fixed Features" — the
// dictionary data, the truncated-ReLU network with symmetric init, its NTK linearisation, the phased
// training schedule, and the pattern probes.
#include "dictionary_patterns.hpp"
#include "gradient_features.hpp"
#include "ground_truth_net.hpp"
#include "hypercube_gaussian_parity.hpp"
#include "linear_separable.hpp"
#include "multi_index_gaussian.hpp"
#include "neuron_map.hpp"
#include "ntk_two_layer.hpp"
#include "pattern_probes.hpp"
#include "phased_gd.hpp"
#include "readout_trainer.hpp"
#include "structured_parity.hpp"
#include "symmetric_relu_two_layer.hpp"
#include "truncated_two_layer.hpp"

#include <featurelab/pack.hpp>

using namespace feature_emergence;

FEATURELAB_PACK("feature-emergence", "0.1.0") {
  pack.add<DictionaryPatterns>("dictionary-patterns", DictionaryPatterns::kDoc, DictionaryPatterns::schema());
  pack.add<StructuredParity>("structured-parity", StructuredParity::kDoc, StructuredParity::schema());
  pack.add<HypercubeGaussianParity>("hypercube-gaussian-parity", HypercubeGaussianParity::kDoc, HypercubeGaussianParity::schema());
  pack.add<LinearSeparable>("linear-separable", LinearSeparable::kDoc, LinearSeparable::schema());
  pack.add<MultiIndexGaussian>("multi-index-gaussian", MultiIndexGaussian::kDoc, MultiIndexGaussian::schema());
  pack.add<TruncatedTwoLayer>("truncated-two-layer", TruncatedTwoLayer::kDoc, TruncatedTwoLayer::schema());
  pack.add<NtkTwoLayer>("ntk-two-layer", NtkTwoLayer::kDoc, NtkTwoLayer::schema());
  pack.add<PhasedGd>("phased-gd", PhasedGd::kDoc, PhasedGd::schema());
  pack.add<ReadoutTrainer>("readout", ReadoutTrainer::kDoc, ReadoutTrainer::schema());
  pack.add<PatternCosine>("pattern-cosine", PatternCosine::kDoc, PatternCosine::schema());
  pack.add<PatternComponents>("pattern-components", PatternComponents::kDoc, PatternComponents::schema());
  pack.add<SymmetricReluTwoLayer>("symmetric-relu-two-layer", SymmetricReluTwoLayer::kDoc, SymmetricReluTwoLayer::schema());
  pack.add<GroundTruthNet>("ground-truth-net", GroundTruthNet::kDoc, GroundTruthNet::schema());
  pack.add<GradientFeatures>("gradient-features", GradientFeatures::kDoc, GradientFeatures::schema());
  pack.add<NeuronMap>("neuron-map", NeuronMap::kDoc, NeuronMap::schema());
}
