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
  pack.add<DictionaryPatterns>("dictionary-patterns");
  pack.add<StructuredParity>("structured-parity");
  pack.add<HypercubeGaussianParity>("hypercube-gaussian-parity");
  pack.add<LinearSeparable>("linear-separable");
  pack.add<MultiIndexGaussian>("multi-index-gaussian");
  pack.add<TruncatedTwoLayer>("truncated-two-layer");
  pack.add<NtkTwoLayer>("ntk-two-layer");
  pack.add<PhasedGd>("phased-gd");
  pack.add<ReadoutTrainer>("readout");
  pack.add<PatternCosine>("pattern-cosine");
  pack.add<PatternComponents>("pattern-components");
  pack.add<SymmetricReluTwoLayer>("symmetric-relu-two-layer");
  pack.add<GroundTruthNet>("ground-truth-net");
  pack.add<GradientFeatures>("gradient-features");
  pack.add<NeuronMap>("neuron-map");
}
