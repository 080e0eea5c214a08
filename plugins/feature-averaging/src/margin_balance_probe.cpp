// One forward pass over the training set.
#include "margin_balance_probe.hpp"

#include <algorithm>
#include <limits>

namespace featurelab::feature_averaging_pack {

void MarginBalanceProbe::measure(const ProbeInput& in, Measurements& out) {
  if (in.model.outputs() != 1 || in.train.size() == 0) return;
  Mat f(in.train.size(), 1);
  in.model.forward(in.train.X, f);
  double lowest = std::numeric_limits<double>::infinity(), highest = -lowest, sum = 0;
  for (Index i = 0; i < f.rows(); ++i) {
    const double q = (in.train.y(i) > 0.5 ? 1.0 : -1.0) * static_cast<double>(f(i, 0));  // label 1 is y = +1
    lowest = std::min(lowest, q);
    highest = std::max(highest, q);
    sum += q;
  }
  const double mean = sum / static_cast<double>(f.rows());
  out.scalar("mean", mean);
  out.scalar("gap", highest - lowest);
  // Relative to the margins' size; undefined while they are not all positive on average (t = 0).
  if (mean > 0) out.scalar("relative_gap", (highest - lowest) / mean);
}

}  // namespace featurelab::feature_averaging_pack
