// The standard training loop. One virtual call into the loss and one into the optimizer per
// step; everything per-sample happens inside their batched products.
#include "standard_trainer.hpp"

#include <featurelab/error.hpp>

#include <cmath>

namespace featurelab::std_pack {

namespace {

// Which component produced the first non-finite value: run only once training has diverged.
std::string divergence_source(Model& model, const Batch& b, Scalar loss, Scalar penalty) {
  if (!model.parameters().allFinite()) return "the model's parameters (the optimizer's previous step)";
  if (!b.X().allFinite()) return "the data (a non-finite input)";
  Mat out(b.n, model.outputs());
  model.forward(b.X(), out);
  if (!out.allFinite()) return "the model (its outputs are not finite on finite parameters and inputs)";
  if (!std::isfinite(loss)) return "the loss (not finite on finite model outputs)";
  if (!std::isfinite(penalty)) return "a [[regularizer]] (its penalty)";
  return "the gradient (the model's backward pass or the loss's derivative, on finite outputs and loss)";
}

}  // namespace

Schema StandardTrainer::schema() {
  Schema s;
  s.integer("steps", 1000, "training steps").min(0);
  s.integer("batch", 0, "minibatch size; 0 = the full training set").min(0);
  s.boolean("fresh", false, "draw a fresh batch from the distribution every step (online SGD)");
  s.boolean("shuffle", true, "reshuffle minibatches every epoch; false = consecutive row blocks, no copy");
  s.integer("eval_every", 0, "run the probes every this many steps; 0 = at the start and the end only").min(0);
  s.integers("eval_at", {}, "also run the probes after these steps").min(0);
  s.integer("log_every", 0, "record train.loss every this many steps; 0 = at evaluations only").min(0);
  return s;
}

StandardTrainer::StandardTrainer(const Params& params, Context&)
    : steps_(params.integer("steps")),
      batch_(params.integer("batch")),
      fresh_(params.boolean("fresh")),
      shuffle_(params.boolean("shuffle")),
      eval_every_(params.integer("eval_every")),
      log_every_(params.integer("log_every")) {
  for (auto s : params.integers("eval_at")) eval_at_.insert(s);
}

bool StandardTrainer::due(Index step) const {
  return step == steps_ || (eval_every_ > 0 && step % eval_every_ == 0) || eval_at_.count(step) > 0;
}

void StandardTrainer::train(TrainerHost& host, Rng& rng) {
  Model& model = host.model();
  Dataset& train = host.train_data();
  const Index n = train.size();
  const Index batch = batch_ > 0 ? batch_ : n;
  if (!fresh_ && batch > n) {
    throw Error("train.batch = " + std::to_string(batch) + " exceeds the " + std::to_string(n) +
                " training samples; lower it or set data.train higher");
  }
  if (!fresh_ && n == 0) throw Error("no training samples: set data.train >= 1");
  const Index p = model.trainable_size();
  grad_.resize(p);
  host.optimizer().reset(p);
  std::vector<Index> order;
  Index cursor = n;  // forces a (re)shuffle before the first minibatch
  host.evaluate(0);
  for (Index t = 0; t < steps_; ++t) {
    Batch b;
    if (fresh_) {
      host.distribution().sample(batch, Split::Train, rng, buffer_);
      host.transform_fresh(buffer_, rng);
      b = Batch::of(buffer_);
    } else if (batch == n) {
      b = Batch::of(train);
    } else {
      if (cursor + batch > n) {
        if (shuffle_) order = rng.permutation(n);
        cursor = 0;
      }
      if (shuffle_) {
        buffer_.resize(batch, train.dim(), train.T.cols());
        buffer_.classes = train.classes;
        for (Index i = 0; i < batch; ++i) {
          const Index src = order[static_cast<std::size_t>(cursor + i)];
          buffer_.X.row(i) = train.X.row(src);
          buffer_.y(i) = train.y(src);
          if (train.T.size() > 0) buffer_.T.row(i) = train.T.row(src);
        }
        b = Batch::of(buffer_);
      } else {
        b = Batch::rows(train, cursor, batch);  // in place: no copy of the rows
      }
      cursor += batch;
    }
    b = host.augment(b, rng);
    const Scalar loss = host.loss().evaluate_with_gradient(model, b, grad_);
    const Scalar penalty = host.regularize(b, t, grad_);
    if (!std::isfinite(loss) || !std::isfinite(penalty) || !grad_.allFinite()) {
      throw Error("training diverged at step " + std::to_string(t) + ": the loss is " + std::to_string(loss) +
                  (std::isfinite(penalty) ? "" : ", the [[regularizer]] penalty " + std::to_string(penalty)) +
                  (grad_.allFinite() ? "" : " and the gradient is not finite") + "; it came from " +
                  divergence_source(model, b, loss, penalty) + "; lower optimizer.lr or check the data");
    }
    host.optimizer().step(model.parameters().head(p), grad_, t);
    host.progress(t + 1, steps_, loss);
    const Index done = t + 1;
    if ((log_every_ > 0 && done % log_every_ == 0) || due(done)) host.record(done, "train.loss", loss);
    if (due(done) || host.stop_requested()) host.evaluate(done);
    if (host.stop_requested()) return;
  }
}

}  // namespace featurelab::std_pack
