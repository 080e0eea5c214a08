// Hinge losses: binary max(0, margin − y f) and multiclass Crammer–Singer.
#include "hinge_loss.hpp"

#include <featurelab/error.hpp>

#include <algorithm>
#include <vector>

namespace featurelab::std_pack {

Schema HingeLoss::schema() {
  Schema s;
  s.real("margin", 1.0, "the margin the loss asks for").min(0);
  s.choice("class_weights", "none", {"none", "balanced"},
           "balanced: weight each sample by 1/(K·Pr̂[y]) over its batch (α_y = 1/(2 Pr[y]) for two classes)");
  return s;
}

HingeLoss::HingeLoss(const Params& params, Context&)
    : margin_(static_cast<Scalar>(params.real("margin"))), balanced_(params.str("class_weights") == "balanced") {}

void HingeLoss::tune(const std::string& setting, double value) {
  if (setting != "class_balance") throw Error("hinge has no setting '" + setting + "' (it has: class_balance)");
  balanced_ = value != 0;
}

Scalar HingeLoss::value_and_gradient(ConstMatRef out, const Batch& batch, MatRef dout) const {
  const Index n = out.rows(), k = out.cols();
  const ConstIVecMap y = batch.Y();
  dout.setZero();
  // Per-class weights n/(K·count_y) (mean 1 over the batch), or 1.
  const Index classes = std::max<Index>(2, k);
  std::vector<double> weight(static_cast<std::size_t>(classes), 1.0);
  if (balanced_) {
    std::vector<Index> count(static_cast<std::size_t>(classes), 0);
    for (Index i = 0; i < n; ++i) ++count[static_cast<std::size_t>(y(i))];
    Index present = 0;
    for (Index c : count) present += c > 0 ? 1 : 0;
    for (std::size_t c = 0; c < count.size(); ++c) {
      weight[c] = count[c] > 0 ? static_cast<double>(n) / (static_cast<double>(present) * static_cast<double>(count[c])) : 0.0;
    }
  }
  double total = 0;
  for (Index i = 0; i < n; ++i) {
    const Scalar inv_n = static_cast<Scalar>(weight[static_cast<std::size_t>(y(i))] / static_cast<double>(n));
    if (k == 1) {
      const Scalar s = signed_label(y(i));
      const Scalar slack = margin_ - s * out(i, 0);
      if (slack > 0) {
        total += static_cast<double>(slack) * static_cast<double>(inv_n);
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
      total += static_cast<double>(slack) * static_cast<double>(inv_n);
      dout(i, rival) += inv_n;
      dout(i, y(i)) -= inv_n;
    }
  }
  return static_cast<Scalar>(total);
}

}  // namespace featurelab::std_pack
