// The logistic loss and its slope from one forward pass.
#include "loss_stats_probe.hpp"

#include <algorithm>
#include <cmath>

namespace featurelab::feature_amplification_pack {

void LossStatsProbe::measure(const ProbeInput& in, Measurements& out) {
  const Vec f = outputs_of(in.model, in.train.X, "loss-stats");
  double loss = 0, min_slope = 1;
  for (Index i = 0; i < f.size(); ++i) {
    const double z = sign_of_label(in.train.y(i)) * f(i);
    loss += z > 0 ? std::log1p(std::exp(-z)) : -z + std::log1p(std::exp(z));
    min_slope = std::min(min_slope, 1.0 / (1.0 + std::exp(z)));  // −ℓ′(z), a safe sigmoid(−z)
  }
  out.scalar("loss", loss / static_cast<double>(std::max<Index>(1, f.size())));
  out.scalar("min_neg_derivative", min_slope);
}

}  // namespace featurelab::feature_amplification_pack
