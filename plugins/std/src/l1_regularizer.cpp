// λ·‖θ_B‖₁ and its subgradient λ·sign(θ), fused into one pass over each block.
#include "l1_regularizer.hpp"

namespace featurelab::std_pack {

Scalar L1Regularizer::add_penalty(Model& model, const Batch&, Index, VecRef grad) {
  double sum = 0;
  const auto lambda = static_cast<Scalar>(lambda_);
  selection_.for_each(model.parameters().head(model.trainable_size()), grad, [&](auto theta, auto g) {
    sum += static_cast<double>(theta.cwiseAbs().sum());
    g.array() += lambda * theta.array().sign();
  });
  return static_cast<Scalar>(lambda_ * sum);
}

Scalar L1Regularizer::penalty(Model& model, const Batch&, Index) {
  double sum = 0;
  selection_.for_each(model.parameters().head(model.trainable_size()), [&](auto theta) {
    sum += static_cast<double>(theta.cwiseAbs().sum());
  });
  return static_cast<Scalar>(lambda_ * sum);
}

}  // namespace featurelab::std_pack
