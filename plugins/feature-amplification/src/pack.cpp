// Pack feature-amplification: Frei, Chatterji, Bartlett, "Random Feature Amplification: Feature
// Learning and Generalization in Neural Networks" (2022) — label noise, the reference network,
// and the lemmas of the proof of Theorem 3.1 as probes. Data, model, loss and optimizer are std's
// (xor-clusters, two-layer with a fixed balanced second layer, logistic, gd).
#include "label_noise.hpp"
#include "neuron_probes.hpp"
#include "training_probes.hpp"
#include "xor_oracle.hpp"

#include <featurelab/pack.hpp>

using namespace feature_amplification;

FEATURELAB_PACK("feature-amplification", "0.1.0") {
  pack.add<LabelNoise>("label-noise", LabelNoise::kDoc, LabelNoise::schema());
  pack.add<XorOracle>("xor-oracle", XorOracle::kDoc, XorOracle::schema());
  pack.add<SplitAccuracy>("split-accuracy", SplitAccuracy::kDoc, SplitAccuracy::schema());
  pack.add<Margins>("margins", Margins::kDoc, Margins::schema());
  pack.add<LossStats>("loss-stats", LossStats::kDoc, LossStats::schema());
  pack.add<ReferenceAgreement>("reference-agreement", ReferenceAgreement::kDoc, ReferenceAgreement::schema());
  pack.add<DecisionGrid>("decision-grid", DecisionGrid::kDoc, DecisionGrid::schema());
  pack.add<NeuronFeatureCorrelation>("neuron-feature-correlation", NeuronFeatureCorrelation::kDoc,
                                     NeuronFeatureCorrelation::schema());
  pack.add<CandidateSetsProbe>("candidate-sets", CandidateSetsProbe::kDoc, CandidateSetsProbe::schema());
  pack.add<NeuronAlignment>("neuron-alignment", NeuronAlignment::kDoc, NeuronAlignment::schema());
  pack.add<AlmostOrthogonality>("almost-orthogonality", AlmostOrthogonality::kDoc, AlmostOrthogonality::schema());
  pack.add<FeatureMapChange>("feature-map-change", FeatureMapChange::kDoc, FeatureMapChange::schema());
}
