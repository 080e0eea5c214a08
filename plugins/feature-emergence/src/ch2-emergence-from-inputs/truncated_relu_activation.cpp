// The truncated ReLU over a block, as truncated-two-layer computes it at smoothing 0.
#include "truncated_relu_activation.hpp"

#include "truncated_activation.hpp"

namespace featurelab::feature_emergence_pack {

TruncatedReluActivation::TruncatedReluActivation(const Params&, Context&) {}

void TruncatedReluActivation::apply(ConstMatRef Z, MatRef H, MatRef D) const { truncated_relu(Z, 0.0, H, D); }

void TruncatedReluActivation::value(ConstMatRef Z, MatRef H) const { H = Z.cwiseMax(Scalar(0)).cwiseMin(Scalar(1)); }

}  // namespace featurelab::feature_emergence_pack
