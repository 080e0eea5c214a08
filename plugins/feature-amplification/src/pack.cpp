// Pack feature-amplification: Frei, Chatterji, Bartlett, "Random Feature Amplification: Feature
// Learning and Generalization in Neural Networks" (2022) — the reference network and the lemmas of
// the proof of Theorem 3.1 as probes. Data, label noise, model, loss and optimizer are std's
// (xor-clusters, label-noise, two-layer with a fixed balanced second layer, logistic, gd).
#include "neuron_probes.hpp"
#include "training_probes.hpp"
#include "xor_oracle.hpp"

#include <featurelab/pack.hpp>

using namespace feature_amplification;

FEATURELAB_PACK("feature-amplification", "0.1.0") {
  pack.add<XorOracle>("xor-oracle");
  pack.add<SplitAccuracy>("split-accuracy");
  pack.add<Margins>("margins");
  pack.add<LossStats>("loss-stats");
  pack.add<ReferenceAgreement>("reference-agreement");
  pack.add<DecisionGrid>("decision-grid");
  pack.add<NeuronFeatureCorrelation>("neuron-feature-correlation");
  pack.add<CandidateSetsProbe>("candidate-sets");
  pack.add<NeuronAlignment>("neuron-alignment");
  pack.add<AlmostOrthogonality>("almost-orthogonality");
  pack.add<FeatureMapChange>("feature-map-change");
}
