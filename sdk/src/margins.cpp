// The margin attacks lower: y·f for one output, f_y − logsumexp_{j≠y} f_j for several.
#include <featurelab/attack.hpp>

#include <cmath>

namespace featurelab {

Vec margins(ConstMatRef out, ConstIVecMap labels, MatRef dmargin) {
  const Index n = out.rows();
  const Index k = out.cols();
  Vec m(n);
  if (k == 1) {
    for (Index i = 0; i < n; ++i) {
      const Scalar s = signed_label(labels(i));
      m(i) = s * out(i, 0);
      dmargin(i, 0) = s;
    }
    return m;
  }
  for (Index i = 0; i < n; ++i) {
    const Index y = labels(i);
    Scalar top = -std::numeric_limits<Scalar>::infinity();
    for (Index j = 0; j < k; ++j) {
      if (j != y) top = std::max(top, out(i, j));
    }
    Scalar sum = 0;
    for (Index j = 0; j < k; ++j) {
      if (j != y) sum += std::exp(out(i, j) - top);
    }
    const Scalar lse = top + std::log(sum);
    m(i) = out(i, y) - lse;
    for (Index j = 0; j < k; ++j) {
      dmargin(i, j) = j == y ? Scalar(1) : -std::exp(out(i, j) - lse);
    }
  }
  return m;
}

Vec margins(ConstMatRef out, const IVec& labels, MatRef dmargin) {
  return margins(out, ConstIVecMap(labels.data(), labels.size()), dmargin);
}

}  // namespace featurelab
