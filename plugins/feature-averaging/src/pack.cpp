// Pack feature-averaging: Li, Pan, Lyu, Li 2024, "Feature Averaging: An Implicit Bias of Gradient Descent
// Leading to Non-Robustness in Neural Networks" — clusters, analytic attacks, probes and the hand-built
// networks (MNIST is std's `mnist`). The trained networks are std two-layer (Sec. 3.2: balanced ±1/m readout
// with bias; Sec. 4.2: per-class readout), read as binary classifiers by the SDK's partition readout.
#include "activation_pattern_probe.hpp"
#include "cluster_cosine_matrix_probe.hpp"
#include "feature_averaging_direction_attack.hpp"
#include "feature_averaging_distance_probe.hpp"
#include "feature_construction_model.hpp"
#include "functional_distance_probe.hpp"
#include "margin_balance_probe.hpp"
#include "nearest_opposite_centre_attack.hpp"
#include "orthogonal_clusters_distribution.hpp"

#include <featurelab/pack.hpp>

using namespace featurelab::feature_averaging_pack;

FEATURELAB_PACK("feature-averaging", "0.1.0") {
  pack.add<OrthogonalClustersDistribution>("orthogonal-clusters");
  pack.add<FeatureConstructionModel>("feature-construction");
  pack.add<FeatureAveragingDirectionAttack>("feature-averaging-direction");
  pack.add<NearestOppositeCentreAttack>("nearest-opposite-centre");
  pack.add<ClusterCosineMatrixProbe>("cluster-cosine-matrix");
  pack.add<FeatureAveragingDistanceProbe>("feature-averaging-distance");
  pack.add<ActivationPatternProbe>("activation-pattern");
  pack.add<MarginBalanceProbe>("margin-balance");
  pack.add<FunctionalDistanceProbe>("functional-distance");
}
