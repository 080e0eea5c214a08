// The hidden layer now and at the first measurement, one product each.
#include "feature_map_change_probe.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace featurelab::feature_amplification_pack {

void FeatureMapChangeProbe::measure(const ProbeInput& in, Measurements& out) {
  const XorNeurons n = xor_neurons(in.model, in.features, name());
  if (W0_.size() == 0) W0_ = n.W;
  const Mat H0 = (in.train.X * W0_.transpose()).cwiseMax(Scalar(0));
  const Mat H = (in.train.X * n.W.transpose()).cwiseMax(Scalar(0));
  const Vec denom = H0.rowwise().norm();
  const Vec change = (H - H0).rowwise().norm();
  double smallest = std::numeric_limits<double>::infinity();
  for (Index i = 0; i < denom.size(); ++i) {
    if (denom(i) > 0) smallest = std::min(smallest, static_cast<double>(change(i) / denom(i)));  // φ(W0x) = 0: skipped
  }
  if (!std::isfinite(smallest)) return;
  out.scalar("min_ratio", smallest);
  out.scalar("min_ratio_times_init", smallest * static_cast<double>(W0_.norm()));
}

}  // namespace featurelab::feature_amplification_pack
