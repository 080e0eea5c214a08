// Squared loss ½‖f − t‖², averaged over samples.
#include "squared_loss.hpp"

namespace featurelab::std_pack {

Schema SquaredLoss::schema() { return Schema{}; }

SquaredLoss::SquaredLoss(const Params&, Context&) {}

Scalar SquaredLoss::value_and_gradient(ConstMatRef out, const Batch& batch, MatRef dout) const {
  const Index n = out.rows(), k = out.cols();
  if (batch.has_targets() && batch.t_cols == k) {
    dout = out - batch.T();
  } else {
    dout = out;
    const ConstIVecMap y = batch.Y();
    for (Index i = 0; i < n; ++i) {
      if (k == 1) {
        dout(i, 0) -= signed_label(y(i));
      } else {
        dout(i, y(i)) -= Scalar(1);
      }
    }
  }
  const Scalar value = Scalar(0.5) * dout.squaredNorm() / static_cast<Scalar>(n);
  dout /= static_cast<Scalar>(n);
  return value;
}

}  // namespace featurelab::std_pack
