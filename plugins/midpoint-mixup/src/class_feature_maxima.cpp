// Weight–feature correlations as one product W·Vᵀ.
#include "class_feature_maxima.hpp"

#include <featurelab/error.hpp>

#include <algorithm>
#include <limits>

namespace featurelab::midpoint_mixup_pack {

const Mat& views_of(const ProbeInput& in, const std::string& who) {
  return require_feature(in.features, who, "views", "use a multi-view distribution (simple-multiview, multiview-patches)");
}

Mat class_feature_maxima(const Model& model, const Mat& views, double* off_diagonal) {
  const Index k = views.rows() / 2;
  const ParamBlock* w = model.find_block("W");
  if (!w || w->cols != views.cols() || w->rows % k != 0) {
    throw Error("needs a model whose block \"W\" has k·m rows of the feature dimension (patch-two-layer, linear)");
  }
  const Index m = w->rows / k;
  const Mat corr = model.block("W") * views.transpose();  // (k·m)×2k
  Mat lambda(k, 2);
  double off = -std::numeric_limits<double>::infinity();
  for (Index y = 0; y < k; ++y) {
    const auto rows = corr.middleRows(y * m, m);
    lambda(y, 0) = rows.col(2 * y).maxCoeff();
    lambda(y, 1) = rows.col(2 * y + 1).maxCoeff();
    for (Index s = 0; s < 2 * k; ++s) {
      if (s / 2 != y) off = std::max(off, static_cast<double>(rows.col(s).maxCoeff()));
    }
  }
  if (off_diagonal) *off_diagonal = off;
  return lambda;
}

}  // namespace featurelab::midpoint_mixup_pack
