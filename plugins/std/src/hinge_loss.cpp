// Hinge losses: binary max(0, margin − y f) and multiclass Crammer–Singer.
#include "output_losses.hpp"

namespace featurelab::std_pack {

Schema HingeLoss::schema() {
  Schema s;
  s.real("margin", 1.0, "the margin the loss asks for").min(0);
  return s;
}

HingeLoss::HingeLoss(const Params& params, Context&) : margin_(static_cast<Scalar>(params.real("margin"))) {}

Scalar HingeLoss::value_and_gradient(ConstMatRef out, const Batch& batch, MatRef dout) const {
  const Index n = out.rows(), k = out.cols();
  const ConstIVecMap y = batch.Y();
  const Scalar inv_n = Scalar(1) / static_cast<Scalar>(n);
  dout.setZero();
  double total = 0;
  for (Index i = 0; i < n; ++i) {
    if (k == 1) {
      const Scalar s = signed_label(y(i));
      const Scalar slack = margin_ - s * out(i, 0);
      if (slack > 0) {
        total += static_cast<double>(slack);
        dout(i, 0) = -s * inv_n;
      }
      continue;
    }
    Index rival = y(i) == 0 ? 1 : 0;
    for (Index j = 0; j < k; ++j) {
      if (j != y(i) && out(i, j) > out(i, rival)) rival = j;
    }
    const Scalar slack = margin_ + out(i, rival) - out(i, y(i));
    if (slack > 0) {
      total += static_cast<double>(slack);
      dout(i, rival) += inv_n;
      dout(i, y(i)) -= inv_n;
    }
  }
  return static_cast<Scalar>(total / static_cast<double>(n));
}

}  // namespace featurelab::std_pack
