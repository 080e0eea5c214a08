// Coefficients ⟨w_r, μ_j⟩ in one batched product over neurons × centres.
#include "feature_averaging_distance_probe.hpp"

#include <algorithm>
#include <cmath>

namespace featurelab::feature_averaging_pack {

Schema FeatureAveragingDistanceProbe::schema() { return Schema{}; }

FeatureAveragingDistanceProbe::FeatureAveragingDistanceProbe(const Params&, Context&) {}

void FeatureAveragingDistanceProbe::measure(const ProbeInput& in, Measurements& out) {
  const Clusters clusters = clusters_of(&in.features, name());
  const Neurons neurons = neurons_of(in.model, clusters, "feature-averaging-distance");
  const Mat coef = neurons.W * clusters.centres.transpose();  // m×k: λ̂_{r,j} = ⟨w_r, μ_j⟩
  const double d = static_cast<double>(clusters.centres.cols());
  const double lambda = (coef.array() * neurons.matched.array()).sum() / std::max(1.0, double(neurons.matched.sum()));
  double distance = 0, relative = 0, unmatched = -1e300;
  for (Index r = 0; r < neurons.W.rows(); ++r) {
    const Vec target = static_cast<Scalar>(lambda / d) * (neurons.matched.row(r) * clusters.centres).transpose();
    const double gap = (neurons.W.row(r).transpose() - target).norm();
    distance = std::max(distance, std::sqrt(d) * gap);
    relative = std::max(relative, gap / std::max(double(target.norm()), 1e-30));
    for (Index j = 0; j < coef.cols(); ++j) {
      if (neurons.matched(r, j) == 0) unmatched = std::max(unmatched, double(coef(r, j)));
    }
  }
  out.scalar("lambda", lambda);
  out.scalar("distance", distance);
  out.scalar("relative_distance", relative);
  out.scalar("unmatched_max", unmatched);
  out.scalar("bias_max", neurons.b.size() ? double(neurons.b.cwiseAbs().maxCoeff()) : 0.0);
}

}  // namespace featurelab::feature_averaging_pack
