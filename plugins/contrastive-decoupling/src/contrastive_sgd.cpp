// The step loop: sample, augment, one loss evaluation, one optimizer step over the trainable blocks,
// then the bias schedule on the new norms.
#include "contrastive_sgd.hpp"

#include <featurelab/error.hpp>

#include <algorithm>

namespace featurelab::contrastive_decoupling_pack {

Schema ContrastiveSgd::schema() {
  Schema s;
  s.integer("steps", 800, "SGD steps").min(0);
  s.integer("batch", 2304, "fresh samples per step: K positives (the augment's `positives`) + N negatives").min(2);
  s.real("weight_decay", 0.001, "λ of the paper's regulariser λ Σ_i ‖w_i‖² on block W only (its gradient written λw as in "
                                 "App. A.1: 2λ for the literal gradient); added to W's gradient before the optimizer step, "
                                 "biases are never decayed").min(0);
  s.choice("bias", "schedule", {"schedule", "zero", "trained"},
           "schedule (§2.2: 0 until all neurons have grown, then a growing fraction of ‖w_i‖), zero (a linear "
           "network), trained (footnote 4; the model's b must be trainable)");
  s.real("growth", 2.0, "schedule: T1 is the first step with min_i ‖w_i‖²/‖w_i⁽⁰⁾‖² >= growth").above(1);
  s.real("bias_start", 0.465, "schedule: b_i = bias_start·‖w_i‖ at T1 (√(2 ln d/d))").min(0);
  s.real("bias_floor", 0.001, "schedule: after T1, b grows at least by this factor each step").min(0);
  s.real("bias_cap", 0.55, "schedule: b_i <= bias_cap·‖w_i‖ (the theory's polylog(d)/√d)").min(0);
  s.merge(eval_schedule_schema(100, 100));
  return s;
}

ContrastiveSgd::ContrastiveSgd(const Params& params, Context&)
    : steps_(params.integer("steps")),
      batch_(params.integer("batch")),
      weight_decay_(params.real("weight_decay")),
      bias_(params.str("bias")),
      growth_(params.real("growth")),
      bias_start_(params.real("bias_start")),
      bias_floor_(params.real("bias_floor")),
      bias_cap_(params.real("bias_cap")) {
  schedule_ = EvalSchedule(params);
}

void ContrastiveSgd::train(TrainerHost& host, Rng& rng) {
  Model& model = host.model();
  const ParamBlock* wb = model.find_block("W");
  const ParamBlock* bb = model.find_block("b");
  if (!wb || !wb->trainable) throw Error("contrastive-sgd trains block W (one row per neuron); this model has none");
  if (bias_ != "zero" && (!bb || bb->rows != 1 || bb->cols != wb->rows)) {
    throw Error("contrastive-sgd bias = \"" + bias_ + "\" needs a bias block b (1×neurons); use bias = \"zero\" or a "
                "model with one (symmetric-relu-layer)");
  }
  if (bias_ == "trained" && !bb->trainable) {
    throw Error("contrastive-sgd bias = \"trained\" needs a trainable b: set model.train_bias = true");
  }
  if (bias_ != "trained" && bb && bb->trainable) {
    throw Error("the model trains its bias b but contrastive-sgd bias = \"" + bias_ + "\" sets it: set model.train_bias = "
                "false, or bias = \"trained\"");
  }
  if (bias_ == "zero" && bb) model.block("b").setZero();
  const Index p = model.trainable_size();
  grad_.resize(p);
  init_norms2_ = model.block("W").rowwise().squaredNorm().cast<double>();
  if ((init_norms2_.array() <= 0).any()) throw Error("a neuron starts at w = 0: the schedule's growth is undefined; use init_w > 0");
  t1_ = -1;
  host.start();
  for (Index t = 0; t < steps_; ++t) {
    host.distribution().sample(batch_, Split::Train, rng, buffer_);
    host.transform_fresh(buffer_, rng);
    const Batch b = host.augment(Batch::of(buffer_), rng);
    const Scalar loss = host.loss().evaluate_with_gradient(model, b, grad_);
    host.check_step(t, b, loss, 0, grad_);
    if (bias_ == "schedule") norms_ = model.block("W").rowwise().norm().cast<double>();
    if (weight_decay_ > 0) {
      grad_.segment(wb->offset, wb->size()) += static_cast<Scalar>(weight_decay_) * model.parameters().segment(wb->offset, wb->size());
    }
    host.optimizer().step(model.parameters().head(p), grad_, t);
    const Index step = t + 1;
    // The schedule's switch-on step T1 is evaluated too: the probes see the end of Stage I (Thm C.1).
    const bool t1_now = bias_ == "schedule" && schedule_biases(model, step, host);
    if (!host.end_step(step, loss, {t1_now})) return;
  }
}

void ContrastiveSgd::record_evaluation(TrainerHost& host, Index step) {
  Model& model = host.model();
  if (!model.find_block("b")) return;
  const VecD ratio = model.block("b").row(0).transpose().cast<double>().cwiseQuotient(
      model.block("W").rowwise().norm().cast<double>().cwiseMax(1e-30));
  host.record(step, "train.bias_ratio", ratio.mean());
}

bool ContrastiveSgd::schedule_biases(Model& model, Index step, TrainerHost& host) {
  next_norms_ = model.block("W").rowwise().norm().cast<double>();
  auto b = model.block("b");
  if (t1_ < 0) {
    // Stage I: b = 0 until every neuron has grown.
    if ((next_norms_.array().square() / init_norms2_.array()).minCoeff() < growth_) return false;
    t1_ = step;
    host.record(step, "train.t1", static_cast<double>(step));
    b.row(0) = (bias_start_ * next_norms_).cast<Scalar>().transpose();
    return true;
  }
  for (Index i = 0; i < b.cols(); ++i) {
    const double factor = std::max(1.0 + bias_floor_, next_norms_(i) / std::max(norms_(i), 1e-30));
    b(0, i) = static_cast<Scalar>(std::min(static_cast<double>(b(0, i)) * factor, bias_cap_ * next_norms_(i)));
  }
  return false;
}

}  // namespace featurelab::contrastive_decoupling_pack
