// Orthonormal feature vectors: the standard basis, or the Q factor of a Gaussian matrix.
#include "feature_basis.hpp"

#include <featurelab/dataset.hpp>
#include <featurelab/error.hpp>
#include <featurelab/linalg.hpp>

namespace featurelab::midpoint_mixup_pack {

void declare_feature_basis(Schema& s) {
  s.choice("features", "basis", {"basis", "random"},
           "feature vectors: basis (v_{y,l} = e_{2y+l}) or random orthonormal; training is equivalent in law "
           "(rotation invariance of the Gaussian init)");
}

Mat make_feature_basis(const std::string& kind, int classes, Index dim, Rng& rng) {
  const Index count = 2 * static_cast<Index>(classes);
  if (dim < count) {
    throw Error("the " + std::to_string(count) + " features v_{y,l} must be orthonormal, so the dimension must be >= 2k = " +
                std::to_string(count) + ", got " + std::to_string(dim));
  }
  Mat views = Mat::Zero(count, dim);
  if (kind == "basis") {
    for (Index i = 0; i < count; ++i) views(i, i) = 1;
    return views;
  }
  views = random_orthonormal(rng, dim, count, DrawOrder::ByRows).transpose().cast<Scalar>();
  return views;
}

FeatureSet feature_set(const Mat& views) {
  const Index k = views.rows() / 2;
  Mat v1(k, views.cols()), v2(k, views.cols());
  for (Index y = 0; y < k; ++y) {
    v1.row(y) = views.row(2 * y);
    v2.row(y) = views.row(2 * y + 1);
  }
  return {{"views", views}, {"view1", v1}, {"view2", v2}};
}

}  // namespace featurelab::midpoint_mixup_pack
