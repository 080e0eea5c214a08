// (λ/2)·‖θ_B‖², fused into one pass over each block.
#include "l2_regularizer.hpp"

namespace featurelab::std_pack {

Scalar L2Regularizer::add_penalty(Model& model, const Batch&, Index, VecRef grad) {
  double sum = 0;
  const auto lambda = static_cast<Scalar>(lambda_);
  selection_.for_each(model.parameters().head(model.trainable_size()), grad, [&](auto theta, auto g) {
    sum += static_cast<double>(theta.squaredNorm());
    g += lambda * theta;
  });
  return static_cast<Scalar>(0.5 * lambda_ * sum);
}

Scalar L2Regularizer::penalty(Model& model, const Batch&, Index) {
  double sum = 0;
  selection_.for_each(model.parameters().head(model.trainable_size()), [&](auto theta) {
    sum += static_cast<double>(theta.squaredNorm());
  });
  return static_cast<Scalar>(0.5 * lambda_ * sum);
}

}  // namespace featurelab::std_pack
