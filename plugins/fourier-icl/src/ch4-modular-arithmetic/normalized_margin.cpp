// The margins over the full table (modular_margins.hpp) and, on the train split, one forward pass per chunk.
#include "normalized_margin.hpp"
#include "fourier_construction.hpp"
#include "modular_margins.hpp"
#include "modular_weights.hpp"

#include <algorithm>
#include <limits>

namespace featurelab::fourier_icl_pack {

void NormalizedMargin::measure(const ProbeInput& in, Measurements& out) {
  MatD U, W;
  int k = 0;
  modular_weights(in.model, "normalized-margin", U, W, k);
  const int p = static_cast<int>(W.cols());
  const TableMargins t = table_margins(U, W, k, p);
  const double star = gamma_star(k, p);
  out.scalar("margin", t.normalized());
  out.scalar("gamma_star", star);
  out.scalar("ratio", t.normalized() / star);
  out.scalar("weighted", t.weighted_normalized());
  out.scalar("accuracy_table", t.accuracy);
  // The largest ratio at any evaluation so far: Thm. 4.9 bounds every checkpoint, not only the last.
  ratio_max_ = std::max(ratio_max_, t.normalized() / star);
  out.scalar("ratio_max", ratio_max_);
  // The same minimum over the training split only (what our reference runs measured; it can exceed
  // the table's, and even γ*).
  if (in.train.size() > 0) {
    double min_margin = std::numeric_limits<double>::infinity();
    const Index chunk = 65536;
    for (Index start = 0; start < in.train.size(); start += chunk) {
      const Index n = std::min(chunk, in.train.size() - start);
      logits_.resize(n, p);
      in.model.forward(in.train.X.middleRows(start, n), logits_);
      for (Index i = 0; i < n; ++i) {
        const int y = in.train.y(start + i);
        double other = -std::numeric_limits<double>::infinity();
        for (int c = 0; c < p; ++c) {
          if (c != y) other = std::max(other, static_cast<double>(logits_(i, c)));
        }
        min_margin = std::min(min_margin, static_cast<double>(logits_(i, y)) - other);
      }
    }
    out.scalar("ratio_train", min_margin / t.norm_power / star);
  }
}

}  // namespace featurelab::fourier_icl_pack
