// tanh over a block: Eigen's vectorised array tanh, its derivative from the values in one pass.
#include "tanh_activation.hpp"

namespace featurelab::std_pack {

TanhActivation::TanhActivation(const Params&, Context&) {}

void TanhActivation::apply(ConstMatRef Z, MatRef H, MatRef D) const {
  H.array() = Z.array().tanh();
  D.array() = Scalar(1) - H.array().square();
}

void TanhActivation::value(ConstMatRef Z, MatRef H) const { H.array() = Z.array().tanh(); }

}  // namespace featurelab::std_pack
