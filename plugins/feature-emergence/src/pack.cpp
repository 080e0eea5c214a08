// Pack feature-emergence: Shi 2024 (dissertation) chapter 2, "A Theoretical Analysis on Feature
// Learning in Neural Networks: Emergence from Inputs and Advantage over Fixed Features" — the
// dictionary data, the truncated-ReLU network with symmetric init, its NTK linearisation, the phased
// training schedule, and the pattern probes (ch2-emergence-from-inputs/) — and chapter 3, "Provable
// Guarantees for Neural Networks via Gradient Feature Learning" — its data, the 4m-symmetric ReLU
// network, the gradient-feature and subspace probes (ch3-gradient-feature-learning/). What both chapters use (the
// phased trainer, the readout, the fixed ground-truth networks) is in src/.
#include "ground_truth_net.hpp"
#include "phased_gd.hpp"
#include "readout_trainer.hpp"
#include "ch2-emergence-from-inputs/dictionary_patterns.hpp"
#include "ch2-emergence-from-inputs/gaussian_injection.hpp"
#include "ch2-emergence-from-inputs/hypercube_gaussian_parity.hpp"
#include "ch2-emergence-from-inputs/neuron_clusters.hpp"
#include "ch2-emergence-from-inputs/neuron_map.hpp"
#include "ch2-emergence-from-inputs/ntk_two_layer.hpp"
#include "ch2-emergence-from-inputs/pattern_components.hpp"
#include "ch2-emergence-from-inputs/pattern_cosine.hpp"
#include "ch2-emergence-from-inputs/truncated_relu_activation.hpp"
#include "ch2-emergence-from-inputs/truncated_two_layer.hpp"
#include "ch3-gradient-feature-learning/gradient_features.hpp"
#include "ch3-gradient-feature-learning/linear_separable.hpp"
#include "ch3-gradient-feature-learning/multi_index_gaussian.hpp"
#include "ch3-gradient-feature-learning/structured_parity.hpp"
#include "ch3-gradient-feature-learning/subspace_fraction.hpp"
#include "ch3-gradient-feature-learning/symmetric_relu_two_layer.hpp"

#include <featurelab/pack.hpp>

using namespace featurelab::feature_emergence_pack;

FEATURELAB_PACK("feature-emergence", "0.1.0") {
  pack.add<DictionaryPatterns>("dictionary-patterns");
  pack.add<StructuredParity>("structured-parity");
  pack.add<HypercubeGaussianParity>("hypercube-gaussian-parity");
  pack.add<LinearSeparable>("linear-separable");
  pack.add<MultiIndexGaussian>("multi-index-gaussian");
  pack.add<GaussianInjection>("gaussian-injection");
  pack.add<TruncatedTwoLayer>("truncated-two-layer");
  pack.add<TruncatedReluActivation>("truncated-relu");
  pack.add<NtkTwoLayer>("ntk-two-layer");
  pack.add<PhasedGd>("phased-gd");
  pack.add<ReadoutTrainer>("readout");
  pack.add<PatternCosine>("pattern-cosine");
  pack.add<PatternComponents>("pattern-components");
  pack.add<SymmetricReluTwoLayer>("symmetric-relu-two-layer");
  pack.add<GroundTruthNet>("ground-truth-net");
  pack.add<GradientFeatures>("gradient-features");
  pack.add<SubspaceFraction>("subspace-fraction");
  pack.add<NeuronMap>("neuron-map");
  pack.add<NeuronClusters>("neuron-clusters");
}
