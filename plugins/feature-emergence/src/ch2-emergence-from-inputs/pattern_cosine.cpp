// Cosines as one product W·vᵀ.
#include "pattern_cosine.hpp"

#include <featurelab/error.hpp>

#include <cmath>
#include <vector>

namespace featurelab::feature_emergence_pack {

using detail::kPatternData;
using detail::median;

void PatternCosine::measure(const ProbeInput& in, Measurements& out) {
  const std::string& who = name();
  const Mat& v = require_feature(in.features, who, "ground_truth", kPatternData);
  const Mat W = first_layer(in.model, who);
  if (W.cols() != v.cols()) throw Error(who + ": the model's inputs and the ground truth differ in dimension");
  // In double: a neuron that weight decay has shrunk to ~1e-20 per entry has a squared norm below float's range,
  // and its float norm (0 or denormal) would turn its cosine into 1e5 or more. A zero row has cosine 0.
  const MatD Wd = W.cast<double>();
  const VecD vd = v.row(0).transpose().cast<double>();
  const VecD norms = Wd.rowwise().norm();
  const VecD dots = Wd * vd;
  VecD cos(dots.size());
  for (Index i = 0; i < dots.size(); ++i) cos(i) = norms(i) > 0 ? dots(i) / (norms(i) * vd.norm()) : 0.0;
  out.scalar("max", cos.maxCoeff());
  out.scalar("max_neg", (-cos).maxCoeff());
  std::vector<double> abs(static_cast<std::size_t>(cos.size()));
  for (Index i = 0; i < cos.size(); ++i) abs[static_cast<std::size_t>(i)] = std::abs(cos(i));
  out.scalar("median_abs", median(abs));
}

}  // namespace featurelab::feature_emergence_pack
