// One forward pass over the training set, one over the four centres.
#include "margins_probe.hpp"

#include <algorithm>

namespace featurelab::feature_amplification_pack {

void MarginsProbe::measure(const ProbeInput& in, Measurements& out) {
  const std::string& who = name();
  const Vec f = outputs_of(in.model, in.train.X, who);
  const VecD& noisy = column(in.train, "is_noisy", who);
  double clean_min = 1e300, noisy_max = -1e300;
  for (Index i = 0; i < f.size(); ++i) {
    const double margin = sign_of_label(in.train.y(i)) * f(i);
    if (noisy(i) > 0.5) {
      noisy_max = std::max(noisy_max, margin);
    } else {
      clean_min = std::min(clean_min, margin);
    }
  }
  out.scalar("clean_min", clean_min);
  if (noisy_max > -1e300) out.scalar("noisy_max", noisy_max);
  auto it = in.features.find("centres");
  if (it != in.features.end() && it->second.rows() == 4 && it->second.cols() == in.train.dim()) {
    const Vec centres = outputs_of(in.model, it->second, who);
    const char* names[] = {"f_plus_mu1", "f_minus_mu1", "f_plus_mu2", "f_minus_mu2"};
    for (Index c = 0; c < 4; ++c) out.scalar(names[c], static_cast<double>(centres(c)));
  }
}

}  // namespace featurelab::feature_amplification_pack
