// Each candidate neuron's product with the other mean.
#include "almost_orthogonality_probe.hpp"

#include <algorithm>
#include <cmath>

namespace featurelab::feature_amplification_pack {

Schema AlmostOrthogonalityProbe::schema() {
  Schema s;
  s.real("lr", 0.05, "α, the step size of the run (the bound is factor·α|a_j|)").above(0);
  s.real("factor", 3.0, "the constant of Condition 4.8").above(0);
  return s;
}

AlmostOrthogonalityProbe::AlmostOrthogonalityProbe(const Params& params, Context&)
    : lr_(params.real("lr")), factor_(params.real("factor")) {}

void AlmostOrthogonalityProbe::measure(const ProbeInput& in, Measurements& out) {
  const XorNeurons n = xor_neurons(in.model, in.features, name());
  if (!fixed_) {
    sets_ = candidate_sets(n.W, n.a, n.means, 0.0);
    fixed_ = true;
  }
  const Vec other = (n.W.array() * n.other.array()).rowwise().sum().abs();
  double holds = 0, total = 0, worst = 0;
  for (const auto& set : sets_) {
    for (Index j : set) {
      const double ratio = other(j) / (lr_ * std::abs(static_cast<double>(n.a(j))));
      worst = std::max(worst, ratio);
      holds += ratio <= factor_ ? 1 : 0;
      total += 1;
    }
  }
  out.scalar("fraction", total > 0 ? holds / total : 0.0);
  out.scalar("max_ratio", worst);
}

}  // namespace featurelab::feature_amplification_pack
