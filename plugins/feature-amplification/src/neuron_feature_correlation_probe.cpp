// Correlations of every neuron with its own and the other mean.
#include "neuron_feature_correlation_probe.hpp"

#include <featurelab/row_norms.hpp>

namespace featurelab::feature_amplification_pack {

void NeuronFeatureCorrelationProbe::measure(const ProbeInput& in, Measurements& out) {
  const XorNeurons n = xor_neurons(in.model, in.features, name());
  // In double (row_norms.hpp); a zero row correlates 0.
  const VecD norms = row_norms(n.W).cwiseMax(1e-300);
  const VecD own = (n.W.array() * n.own.array()).rowwise().sum().cast<double>().abs() / norms.array();
  const VecD cross = (n.W.array() * n.other.array()).rowwise().sum().cast<double>().abs() / norms.array();
  out.scalar("own_min", own.minCoeff());
  out.scalar("own_p10", quantile(own, 0.1));
  out.scalar("own_median", quantile(own, 0.5));
  out.scalar("own_max", own.maxCoeff());
  out.scalar("cross_median", quantile(cross, 0.5));
  out.scalar("cross_max", cross.maxCoeff());
}

}  // namespace featurelab::feature_amplification_pack
