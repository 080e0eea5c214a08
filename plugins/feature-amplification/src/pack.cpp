// Pack feature-amplification: Frei, Chatterji, Bartlett, "Random Feature Amplification: Feature
// Learning and Generalization in Neural Networks" (2022) — the reference network and the lemmas of
// the proof of Theorem 3.1 as probes. Data, label noise, model, loss and optimizer are std's
// (xor-clusters, label-noise, two-layer with a fixed balanced second layer, logistic, gd).
#include "almost_orthogonality_probe.hpp"
#include "candidate_sets_probe.hpp"
#include "decision_grid_probe.hpp"
#include "feature_map_change_probe.hpp"
#include "loss_stats_probe.hpp"
#include "margins_probe.hpp"
#include "neuron_alignment_probe.hpp"
#include "neuron_feature_correlation_probe.hpp"
#include "reference_agreement_probe.hpp"
#include "split_accuracy_probe.hpp"
#include "subnetwork_probe.hpp"
#include "xor_oracle_model.hpp"

#include <featurelab/pack.hpp>

using namespace featurelab::feature_amplification_pack;

FEATURELAB_PACK("feature-amplification", "0.1.0") {
  pack.add<XorOracleModel>("xor-oracle");
  pack.add<SplitAccuracyProbe>("split-accuracy");
  pack.add<MarginsProbe>("margins");
  pack.add<LossStatsProbe>("loss-stats");
  pack.add<ReferenceAgreementProbe>("reference-agreement");
  pack.add<DecisionGridProbe>("decision-grid");
  pack.add<NeuronFeatureCorrelationProbe>("neuron-feature-correlation");
  pack.add<CandidateSetsProbe>("candidate-sets");
  pack.add<NeuronAlignmentProbe>("neuron-alignment");
  pack.add<AlmostOrthogonalityProbe>("almost-orthogonality");
  pack.add<FeatureMapChangeProbe>("feature-map-change");
  pack.add<SubnetworkProbe>("subnetwork");
}
