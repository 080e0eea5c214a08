// The view layout's roles, written and read back.
#include <featurelab/views.hpp>

namespace featurelab {

void write_view_roles(ConstIVecMap y, Index pairs, Dataset& out) {
  const Index K = pairs, N = y.size() - pairs;
  out.y.head(K) = y.head(K);
  out.y.segment(K, K) = y.head(K);
  out.y.tail(N) = y.tail(N);
  out.T.col(0).head(K).setConstant(kViewAnchor);
  out.T.col(0).segment(K, K).setConstant(kViewPositive);
  out.T.col(0).tail(N).setConstant(kViewNegative);
}

Index view_pairs(const Batch& batch) {
  if (!batch.has_targets()) return 0;
  const ConstMatMap T = batch.T();
  Index K = 0;
  while (K < batch.n && T(K, 0) == kViewAnchor) ++K;
  if (K < 1 || batch.n - 2 * K < 0) return 0;
  for (Index i = K; i < batch.n; ++i) {
    if (T(i, 0) != (i < 2 * K ? kViewPositive : kViewNegative)) return 0;
  }
  return K;
}

}  // namespace featurelab
