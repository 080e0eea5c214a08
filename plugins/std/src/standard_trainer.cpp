// The standard training loop. One virtual call into the loss and one into the optimizer per
// step; everything per-sample happens inside their batched products.
#include "standard_trainer.hpp"

#include <featurelab/error.hpp>

namespace featurelab::std_pack {

Schema StandardTrainer::schema() {
  Schema s;
  s.integer("steps", 1000, "training steps").min(0);
  s.integer("batch", 0, "minibatch size; 0 = the full training set").min(0);
  s.boolean("fresh", false, "draw a fresh batch from the distribution every step (online SGD)");
  s.boolean("shuffle", true, "reshuffle minibatches every epoch; false = consecutive row blocks, no copy");
  s.merge(eval_schedule_schema());
  return s;
}

StandardTrainer::StandardTrainer(const Params& params, Context&)
    : steps_(params.integer("steps")),
      batch_(params.integer("batch")),
      fresh_(params.boolean("fresh")),
      shuffle_(params.boolean("shuffle")) {
  schedule_ = EvalSchedule(params);
}

void StandardTrainer::train(TrainerHost& host, Rng& rng) {
  Model& model = host.model();
  const Index n = host.train_data().size();
  if (!fresh_ && batch_ > n) {
    throw Error("train.batch = " + std::to_string(batch_) + " exceeds the " + std::to_string(n) +
                " training samples; lower it or set data.train higher");
  }
  if (!fresh_ && n == 0) throw Error("no training samples: set data.train >= 1");
  const Index p = model.trainable_size();
  grad_.resize(p);
  host.optimizer().reset(p);
  host.start();
  for (Index t = 0; t < steps_; ++t) {
    const Batch b = host.augment(batches_.next(host, batch_, fresh_, shuffle_, rng), rng);
    const Scalar loss = host.loss().evaluate_with_gradient(model, b, grad_);
    const Scalar penalty = host.regularize(b, t, grad_);
    host.check_step(t, b, loss, penalty, grad_);
    host.optimizer().step(model.parameters().head(p), grad_, t);
    if (!host.end_step(t + 1, loss)) return;
  }
}

}  // namespace featurelab::std_pack
