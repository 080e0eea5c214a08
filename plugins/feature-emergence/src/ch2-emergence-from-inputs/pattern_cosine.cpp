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
  const Vec norms = W.rowwise().norm().cwiseMax(Scalar(1e-30));
  const Vec cos = (W * v.row(0).transpose()).array() / (norms.array() * v.norm());
  out.scalar("max", static_cast<double>(cos.maxCoeff()));
  out.scalar("max_neg", static_cast<double>((-cos).maxCoeff()));
  std::vector<double> abs(static_cast<std::size_t>(cos.size()));
  for (Index i = 0; i < cos.size(); ++i) abs[static_cast<std::size_t>(i)] = std::abs(cos(i));
  out.scalar("median_abs", median(abs));
}

}  // namespace featurelab::feature_emergence_pack
