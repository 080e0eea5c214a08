// Pack feature-averaging: Li, Pan, Lyu, Li 2024, "Feature Averaging: An Implicit Bias of Gradient Descent
// Leading to Non-Robustness in Neural Networks" — clusters, analytic attacks, probes and the hand-built
// networks (MNIST is std's `mnist`). The trained networks are std two-layer (Sec. 3.2: balanced ±1/m readout
// with bias; Sec. 4.2: per-class readout), read as binary classifiers by the SDK's partition readout.
#include "attacks.hpp"
#include "feature_construction.hpp"
#include "orthogonal_clusters.hpp"
#include "probes.hpp"

#include <featurelab/pack.hpp>

using namespace feature_averaging;

FEATURELAB_PACK("feature-averaging", "0.1.0") {
  pack.add<OrthogonalClusters>("orthogonal-clusters");
  pack.add<FeatureConstruction>("feature-construction");
  pack.add<FeatureAveragingDirection>("feature-averaging-direction");
  pack.add<NearestOppositeCentre>("nearest-opposite-centre");
  pack.add<ClusterCosineMatrix>("cluster-cosine-matrix");
  pack.add<FeatureAveragingDistance>("feature-averaging-distance");
  pack.add<ActivationPattern>("activation-pattern");
}
