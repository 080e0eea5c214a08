// What the feature probes share (feature_learned_probe.hpp, feature_correlation_probe.hpp): the features of a
// multi-view distribution, and the largest correlations of the class-major weights with them.
#pragma once

#include <featurelab/probe.hpp>

#include <string>

namespace featurelab::midpoint_mixup_pack {

// The distribution's feature "views" (2k×d: v_{y,1}, v_{y,2} per class y); throws with the fix when it has none.
const featurelab::Mat& views_of(const featurelab::ProbeInput& in, const std::string& who);

// The class a row of outputs names: its largest entry (the first, on a tie).
inline featurelab::Index predicted_class(const featurelab::Mat& out, featurelab::Index i) {
  featurelab::Index best = 0;
  out.row(i).maxCoeff(&best);
  return best;
}

// Λ (k×2) and O of the model's "W" block against the features; W has k·m rows, class-major.
featurelab::Mat class_feature_maxima(const featurelab::Model& model, const featurelab::Mat& views, double* off_diagonal);

}  // namespace featurelab::midpoint_mixup_pack
