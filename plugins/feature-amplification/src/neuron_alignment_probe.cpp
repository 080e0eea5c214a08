// Activation patterns as one product X·Wᵀ.
#include "neuron_alignment_probe.hpp"

#include <cstddef>

namespace featurelab::feature_amplification_pack {

void NeuronAlignmentProbe::measure(const ProbeInput& in, Measurements& out) {
  const std::string& who = name();
  const XorNeurons n = xor_neurons(in.model, in.features, who);
  if (!fixed_) {
    sets_ = candidate_sets(n.W, n.a, n.means, 0.0);
    fixed_ = true;
  }
  const VecD& cluster = column(in.train, "cluster", who);
  const Mat Z = in.train.X * n.W.transpose();
  double holds = 0, total = 0;
  for (int c = 0; c < 4; ++c) {
    for (Index j : sets_[static_cast<std::size_t>(c)]) {
      bool ok = true;
      for (Index i = 0; i < Z.rows() && ok; ++i) {
        const int k = static_cast<int>(cluster(i));
        if (k == c && Z(i, j) <= 0) ok = false;            // φ′ = 1 on its own cluster, noisy points included
        if (k == opposite(c) && Z(i, j) > 0) ok = false;   // φ′ = 0 on the opposite one
      }
      holds += ok ? 1 : 0;
      total += 1;
    }
  }
  out.scalar("fraction", total > 0 ? holds / total : 0.0);
}

}  // namespace featurelab::feature_amplification_pack
