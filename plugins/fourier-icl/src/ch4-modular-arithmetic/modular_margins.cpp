// Per chunk of tuples: Z by gathering k columns of Uᵀ per tuple (one-hot inputs), H = Z^k, F = HW.
#include "modular_margins.hpp"
#include "modular_table.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

namespace featurelab::fourier_icl_pack {

TableMargins table_margins(const MatD& U, const MatD& W, int k, int p) {
  TableMargins r;
  const Index m = U.rows();
  const Index total = table_size(k, p, std::numeric_limits<Index>::max() / 2);
  const MatD Ut = U.transpose();  // kp×m: row j·p + a is u_{·,j}[a]
  const Index chunk = 4096;
  MatD Z(chunk, m), F(chunk, p);
  std::vector<int> a(static_cast<std::size_t>(k));
  std::vector<int> labels(static_cast<std::size_t>(chunk));
  double min_margin = std::numeric_limits<double>::infinity(), weighted = 0, correct = 0;
  for (Index start = 0; start < total; start += chunk) {
    const Index n = std::min(chunk, total - start);
    for (Index t = 0; t < n; ++t) {
      digits(start + t, k, p, a.data());
      int sum = 0;
      Z.row(t) = Ut.row(a[0]);
      sum += a[0];
      for (int j = 1; j < k; ++j) {
        Z.row(t) += Ut.row(static_cast<Index>(j) * p + a[static_cast<std::size_t>(j)]);
        sum += a[static_cast<std::size_t>(j)];
      }
      labels[static_cast<std::size_t>(t)] = sum % p;
    }
    MatD H = Z.topRows(n);
    for (int e = 1; e < k; ++e) H.array() *= Z.topRows(n).array();
    F.topRows(n).noalias() = H * W;
    for (Index t = 0; t < n; ++t) {
      const int y = labels[static_cast<std::size_t>(t)];
      const double fy = F(t, y);
      double best_other = -std::numeric_limits<double>::infinity();
      const double total_row = F.row(t).sum();
      for (int c = 0; c < p; ++c) {
        if (c != y) best_other = std::max(best_other, F(t, c));
      }
      const double g = fy - best_other;
      min_margin = std::min(min_margin, g);
      weighted += fy - (total_row - fy) / (p - 1);
      correct += g > 0 ? 1 : 0;
    }
  }
  r.min_margin = min_margin;
  r.mean_weighted = weighted / static_cast<double>(total);
  r.accuracy = correct / static_cast<double>(total);
  const VecD norms2 = U.rowwise().squaredNorm() + W.rowwise().squaredNorm();
  r.norm_power = norms2.array().pow((k + 1) / 2.0).sum();
  return r;
}

}  // namespace featurelab::fourier_icl_pack
