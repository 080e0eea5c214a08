// Correlations of every neuron with its own and the other mean.
#include "neuron_feature_correlation_probe.hpp"

namespace featurelab::feature_amplification_pack {

void NeuronFeatureCorrelationProbe::measure(const ProbeInput& in, Measurements& out) {
  const XorNeurons n = xor_neurons(in.model, in.features, name());
  const Vec norms = n.W.rowwise().norm().cwiseMax(Scalar(1e-30));
  const VecD own = ((n.W.array() * n.own.array()).rowwise().sum().abs() / norms.array()).cast<double>();
  const VecD cross = ((n.W.array() * n.other.array()).rowwise().sum().abs() / norms.array()).cast<double>();
  out.scalar("own_min", own.minCoeff());
  out.scalar("own_p10", quantile(own, 0.1));
  out.scalar("own_median", quantile(own, 0.5));
  out.scalar("own_max", own.maxCoeff());
  out.scalar("cross_median", quantile(cross, 0.5));
  out.scalar("cross_max", cross.maxCoeff());
}

}  // namespace featurelab::feature_amplification_pack
