// Logistic loss with softplus for stability: ℓ(z) = log(1 + e^{−z}), −ℓ'(z) = 1/(1 + e^{z}).
#include "logistic_loss.hpp"

#include <featurelab/error.hpp>

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

}  // namespace featurelab::std_pack
