// Logistic loss with softplus for stability: ℓ(z) = log(1 + e^{−z}), −ℓ'(z) = 1/(1 + e^{z}).
#include "logistic_loss.hpp"

#include <featurelab/error.hpp>

#include <algorithm>
#include <cmath>

namespace featurelab::std_pack {

namespace {
// log(1 + e^{u}) without overflow.
template <class A>
auto softplus(const A& u) {
  return u.max(Scalar(0)) + (-u.abs()).exp().log1p();
}
}  // namespace

Schema LogisticLoss::schema() { return Schema{}; }

LogisticLoss::LogisticLoss(const Params&, Context&) {}

void LogisticLoss::check_model(const Model& model, const DataSpec& data) const {
  if (model.outputs() != 1) {
    throw Error("logistic needs one output (binary data, labels ±1), the model has " +
                std::to_string(model.outputs()) + "; set model.outputs = 1" +
                (data.classes > 2 ? ", or use loss cross-entropy for " + std::to_string(data.classes) + " classes" : ""));
  }
}

Scalar LogisticLoss::value_and_gradient(ConstMatRef out, const Batch& batch, MatRef dout) const {
  const Index n = out.rows();
  const auto f = out.col(0).array();
  auto& t = t_;  // probability of the positive class
  t.resize(n);
  if (batch.has_targets() && batch.t_cols == 1) {
    t = batch.T().col(0).array();
  } else {
    t = (batch.Y().array() == 1).template cast<Scalar>();
  }
  // −[t log σ(f) + (1−t) log σ(−f)] = t·softplus(−f) + (1−t)·softplus(f); derivative σ(f) − t.
  const Scalar total = (t * softplus(-f) + (Scalar(1) - t) * softplus(f)).sum();
  dout.col(0).array() = (Scalar(1) / (Scalar(1) + (-f).exp()) - t) / static_cast<Scalar>(n);
  return total / static_cast<Scalar>(n);
}

double LogisticLoss::row_block(ConstMatRef out, const Batch& batch, Index first, Index total, MatRef dout) const {
  // The same terms as value_and_gradient, row by row and without its scratch (several threads call it).
  const bool soft = batch.has_targets() && batch.t_cols == 1;
  const Scalar inv_total = Scalar(1) / static_cast<Scalar>(total);
  double sum = 0;
  for (Index i = 0; i < out.rows(); ++i) {
    const Index row = first + i;
    const Scalar t = soft ? batch.t[row] : static_cast<Scalar>(batch.y[row] == 1);
    const Scalar f = out(i, 0);
    const Scalar tail = std::log1p(std::exp(-std::abs(f)));  // shared by softplus(f) and softplus(−f)
    const Scalar softplus_f = std::max(f, Scalar(0)) + tail;
    const Scalar softplus_minus_f = std::max(-f, Scalar(0)) + tail;
    sum += static_cast<double>(t * softplus_minus_f + (Scalar(1) - t) * softplus_f);
    dout(i, 0) = (Scalar(1) / (Scalar(1) + std::exp(-f)) - t) * inv_total;
  }
  return sum;
}

}  // namespace featurelab::std_pack
