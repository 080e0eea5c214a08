// One product with the training set: the hidden activations, then the two readouts a∘1_J and a.
#include "subnetwork_probe.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace featurelab::feature_amplification_pack {

Schema SubnetworkProbe::schema() {
  Schema s;
  s.real("C0", 2.0, "C0 of Lemma 4.2: J_μ holds the neurons with <ŵ_j, μ> > 1/(3 C0 √d) at t = 0").above(1);
  return s;
}

SubnetworkProbe::SubnetworkProbe(const Params& params, Context&) : c0_(params.real("C0")) {}

void SubnetworkProbe::measure(const ProbeInput& in, Measurements& out) {
  const XorNeurons n = xor_neurons(in.model, in.features, name());
  const Index m = n.W.rows();
  if (in_J_.size() == 0) {
    const double threshold = 1.0 / (3 * c0_ * std::sqrt(static_cast<double>(n.W.cols())));
    in_J_ = Vec::Zero(m);
    for (const auto& set : candidate_sets(n.W, n.a, n.means, threshold)) {
      for (Index j : set) in_J_(j) = 1;
    }
  }
  // H = φ(X Wᵀ), n×m (the two-layer net without bias: f = H a).
  const Mat H = (in.train.X * n.W.transpose()).cwiseMax(Scalar(0));
  const Vec f_J = H * n.a.cwiseProduct(in_J_);
  const Vec f = H * n.a;
  const VecD& noisy = column(in.train, "is_noisy", name());
  double clean_min = std::numeric_limits<double>::infinity();
  double noisy_max = -std::numeric_limits<double>::infinity();
  double agree = 0;
  for (Index i = 0; i < f.size(); ++i) {
    const double margin = sign_of_label(in.train.y(i)) * f_J(i);
    if (noisy(i) > 0.5) {
      noisy_max = std::max(noisy_max, margin);
    } else {
      clean_min = std::min(clean_min, margin);
    }
    agree += (f_J(i) > 0) == (f(i) > 0) ? 1 : 0;
  }
  if (std::isfinite(clean_min)) out.scalar("clean_min", clean_min);
  if (std::isfinite(noisy_max)) out.scalar("noisy_max", noisy_max);
  out.scalar("sign_agreement", agree / static_cast<double>(std::max<Index>(1, f.size())));
  out.scalar("size_fraction", in_J_.sum() / static_cast<double>(std::max<Index>(1, m)));
}

}  // namespace featurelab::feature_amplification_pack
