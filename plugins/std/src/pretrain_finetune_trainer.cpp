// The two phases of one job; the loop's shared part (checks, schedule, progress) is the host's.
#include "pretrain_finetune_trainer.hpp"

#include <featurelab/error.hpp>

#include <spdlog/spdlog.h>

namespace featurelab::std_pack {

Schema PretrainFinetuneTrainer::schema() {
  Schema s;
  s.integer("pretrain_steps", 1000, "steps of pretraining on the unlabelled pool (the regularizers alone)").min(0);
  s.integer("pretrain_batch", 256, "pool images per pretraining step").min(1);
  s.string("pool", "pretrain_inputs", "the distribution's feature that holds the unlabelled pool (one image a row)");
  s.integer("steps", 200, "fine-tuning steps on the training split (loss + regularizers)").min(0);
  s.integer("batch", 0, "fine-tuning minibatch; 0 = the whole training split (few labels: full batch)").min(0);
  s.merge(eval_schedule_schema());
  return s;
}

PretrainFinetuneTrainer::PretrainFinetuneTrainer(const Params& params, Context& context)
    : log_(context.log),
      pretrain_steps_(params.integer("pretrain_steps")),
      pretrain_batch_(params.integer("pretrain_batch")),
      steps_(params.integer("steps")),
      batch_(params.integer("batch")),
      pool_feature_(params.str("pool")) {
  schedule_ = EvalSchedule(params);
}

Batch PretrainFinetuneTrainer::next_pool_batch(const Mat& pool, Rng& rng) {
  const Index n = pool.rows();
  if (pool_cursor_ < 0 || pool_cursor_ + pretrain_batch_ > n) {
    pool_order_ = rng.permutation(n);
    pool_cursor_ = 0;
  }
  for (Index i = 0; i < pretrain_batch_; ++i) {
    pool_batch_.X.row(i) = pool.row(pool_order_[static_cast<std::size_t>(pool_cursor_ + i)]);
  }
  pool_cursor_ += pretrain_batch_;
  return Batch::of(pool_batch_);
}

void PretrainFinetuneTrainer::train(TrainerHost& host, Rng& rng) {
  Model& model = host.model();
  const Index p = model.trainable_size();
  grad_.resize(p);
  Mat pool;
  if (pretrain_steps_ > 0) {
    pool = require_feature(host.distribution().features(), "pretrain-finetune", pool_feature_,
                           "use a distribution with an unlabelled pool (data.use = \"mnist-fashion-transfer\"), or "
                           "set train.pretrain_steps = 0");
    if (pool.cols() != host.train_data().dim()) {
      throw Error("pretrain-finetune: the pool's images have " + std::to_string(pool.cols()) +
                  " values, the training split's " + std::to_string(host.train_data().dim()));
    }
    if (pretrain_batch_ > pool.rows()) {
      throw Error("train.pretrain_batch = " + std::to_string(pretrain_batch_) + " exceeds the pool's " +
                  std::to_string(pool.rows()) + " images; lower it or enlarge the pool");
    }
    pool_batch_.resize(pretrain_batch_, pool.cols());
    pool_batch_.y.setZero();  // unlabelled: the regularizers read the images only
    pool_batch_.classes = host.train_data().classes;
    pool_batch_.shape = host.train_data().shape;
  }
  host.optimizer().reset(p);
  host.start();
  for (Index t = 0; t < pretrain_steps_; ++t) {
    const Batch b = next_pool_batch(pool, rng);
    grad_.setZero();
    const Scalar objective = host.regularize(b, t, grad_);
    host.check_step(t, b, 0, objective, grad_);
    if (t == 0 && log_ && grad_.isZero(0)) {
      log_->warn("pretrain-finetune: no [[regularizer]] gives a gradient at the first pretraining step, so "
                 "pretraining changes nothing; add one active in the first train.pretrain_steps steps (e.g. "
                 "contrastive-views with until = {})", pretrain_steps_);
    }
    host.optimizer().step(model.parameters().head(p), grad_, t);
    const bool last = t + 1 == pretrain_steps_;
    if (!host.end_step(t + 1, objective, {last, last})) return;
  }
  host.optimizer().reset(p);
  for (Index t = pretrain_steps_; t < total_steps(); ++t) {
    const Batch b = host.augment(batches_.next(host, batch_, false, true, rng), rng);
    const Scalar loss = host.loss().evaluate_with_gradient(model, b, grad_);
    const Scalar penalty = host.regularize(b, t, grad_);
    host.check_step(t, b, loss, penalty, grad_);
    // The optimizer counts its own steps from the reset (Adam's bias correction starts again).
    host.optimizer().step(model.parameters().head(p), grad_, t - pretrain_steps_);
    if (!host.end_step(t + 1, loss)) return;
  }
}

}  // namespace featurelab::std_pack
