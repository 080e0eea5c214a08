// The weights of the modular-addition network (poly-one-hidden-layer, or fourier-max-margin) as the probes of
// ch. 4 read them: blocks U (m×kp) and W (m×p), k = columns of U / columns of W.
#pragma once

#include <featurelab/model.hpp>

#include <string>

namespace featurelab::fourier_icl_pack {

// The network's U and W as double, and k; throws naming the probe when the model is not poly-one-hidden-layer.
void modular_weights(const featurelab::Model& model, const std::string& who, featurelab::MatD& U, featurelab::MatD& W, int& k);

}  // namespace featurelab::fourier_icl_pack
