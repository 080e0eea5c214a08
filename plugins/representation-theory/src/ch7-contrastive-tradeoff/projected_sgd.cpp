#include "projected_sgd.hpp"
#include "multitask_linear.hpp"
#include "task_structure.hpp"

#include <featurelab/error.hpp>
#include <featurelab/linalg.hpp>

#include <algorithm>
#include <cmath>

namespace featurelab::representation_theory_pack {

Schema ProjectedSgd::schema() {
  Schema s;
  s.integer("steps", 1500, "pretraining steps on the data's task mixture").min(0);
  s.integer("batch", 32, "fresh samples per step (the augment turns its first `positives` into pairs)").min(1);
  s.real("spectral", 1.0, "the spectral bound c: ‖W‖₂ ≤ c (§7.2.2: 1); 0 = none").min(0);
  s.real("frobenius", Automatic{"√r of the data (§7.2.2)"}, "the Frobenius bound F of pretraining: ‖W‖_F ≤ F; 0 = none").min(0);
  s.integer("finetune_steps", 0, "then this many fine-tuning steps on task finetune_task alone (F.104); 0 = none").min(0);
  s.integer("finetune_task", 0, "the fine-tuning's target task t (0-based)").min(0);
  s.real("finetune_radius", 0.3, "γ: fine-tuning keeps ‖W − W₀‖_F ≤ γ, W₀ = W when it starts (F.105); 0 = no ball").min(0);
  s.real("finetune_frobenius", 0.0, "the Frobenius bound while fine-tuning (F.105 has none: 0)").min(0).or_auto("√r of the data");
  s.integer("projection_rounds", 200, "fine-tuning: at most this many Dykstra rounds per projection onto the "
                                      "intersection of the norm bounds and the ball").min(1);
  s.real("projection_tolerance", 1e-10, "Dykstra stops when its iterates move less than this (relative to ‖W‖_F)").above(0);
  // The probes also run when fine-tuning starts.
  s.merge(eval_schedule_schema(100, 50));
  return s;
}

ProjectedSgd::ProjectedSgd(const Params& params, Context& context)
    : steps_(params.integer("steps")),
      batch_(params.integer("batch")),
      finetune_steps_(params.integer("finetune_steps")),
      finetune_task_(params.integer("finetune_task")),
      spectral_(params.real("spectral")),
      finetune_radius_(params.real("finetune_radius")),
      rounds_(static_cast<int>(params.integer("projection_rounds"))),
      tolerance_(params.real("projection_tolerance")) {
  schedule_ = EvalSchedule(params);
  // A bound is a value, 0 (none) or auto: √r of the data, read only when a bound that is used asks for it.
  const auto frobenius = params.real_or_auto("frobenius");
  const auto finetune_frobenius = params.real_or_auto("finetune_frobenius");
  double root_r = -1;
  if (!frobenius || (finetune_steps_ > 0 && !finetune_frobenius)) {
    const TaskStructure ts = read_task_structure(context.features, context.name + " (a Frobenius bound = \"auto\": √r of the data)");
    root_r = std::sqrt(static_cast<double>(ts.r));
  }
  frobenius_ = frobenius.value_or(root_r);
  finetune_frobenius_ = finetune_frobenius.value_or(root_r);
}

void ProjectedSgd::train(TrainerHost& host, Rng& rng) {
  Model& model = host.model();
  const ParamBlock* wb = model.find_block("W");
  if (!wb || !wb->trainable) {
    throw Error("projected-sgd projects block W (the representation's weights) and this model has no trainable W: "
                "use model.use = \"linear-representation\"");
  }
  if (finetune_steps_ > 0) {
    auto* data = dynamic_cast<MultitaskLinear*>(&host.distribution());
    if (!data) throw Error("projected-sgd finetune_steps > 0 draws the target task's data: use data.use = \"multitask-linear\"");
    if (finetune_task_ >= data->tasks()) {
      throw Error("projected-sgd finetune_task = " + std::to_string(finetune_task_) + " but the data has T = " +
                  std::to_string(data->tasks()) + " tasks (0-based)");
    }
  }
  const Index p = model.trainable_size();
  grad_.resize(p);
  host.optimizer().reset(p);
  // The initial W is projected too: the run starts inside the class it optimises over.
  NormProjection pretrain(spectral_, frobenius_);
  W_ = model.block("W").cast<double>();
  pretrain.project(W_);
  model.block("W") = W_.cast<Scalar>();
  host.start();
  if (!stage(host, rng, 0, steps_, -1, pretrain) || finetune_steps_ == 0) return;

  anchor_ = model.block("W").cast<double>();
  NormProjection finetune(spectral_, finetune_frobenius_);
  finetune.set_ball(anchor_, finetune_radius_);
  finetune.set_dykstra(rounds_, tolerance_);
  host.record(steps_, "train.finetune_start", static_cast<double>(steps_));
  host.optimizer().reset(p);
  stage(host, rng, steps_, steps_ + finetune_steps_, finetune_task_, finetune);
}

bool ProjectedSgd::stage(TrainerHost& host, Rng& rng, Index first, Index last, Index task, NormProjection& projection) {
  Model& model = host.model();
  const Index p = model.trainable_size();
  auto* multitask = dynamic_cast<MultitaskLinear*>(&host.distribution());
  rounds_sum_ = 0;
  rounds_count_ = 0;
  finetuning_ = task >= 0;
  for (Index t = first; t < last; ++t) {
    if (task >= 0) {
      multitask->sample_task(batch_, task, rng, buffer_);
    } else {
      host.distribution().sample(batch_, Split::Train, rng, buffer_);
    }
    host.transform_fresh(buffer_, rng);
    const Batch b = host.augment(Batch::of(buffer_), rng);
    // The pipeline's [[regularizer]] penalties (none in chapter 7's pipelines) join the loss before the projection.
    const Scalar loss = host.loss().evaluate_with_gradient(model, b, grad_);
    const Scalar penalty = host.regularize(b, t, grad_);
    host.check_step(t, b, loss, penalty, grad_);
    host.optimizer().step(model.parameters().head(p), grad_, t - first);
    W_ = model.block("W").cast<double>();
    rounds_sum_ += projection.project(W_);
    ++rounds_count_;
    model.block("W") = W_.cast<Scalar>();

    // Pretraining's last step is evaluated when fine-tuning follows; train.loss restarts its window with fine-tuning.
    StepEnd how;
    how.evaluate = task < 0 && t + 1 == last && finetune_steps_ > 0;
    how.restart_loss_window = t == first && task >= 0;
    if (!host.end_step(t + 1, loss + penalty, how)) return false;
  }
  return true;
}

void ProjectedSgd::record_evaluation(TrainerHost& host, Index step) {
  const MatD W = host.model().block("W").cast<double>();
  host.record(step, "train.fro2", W.squaredNorm());
  const MatD gram = W.rows() <= W.cols() ? MatD(W * W.transpose()) : MatD(W.transpose() * W);
  host.record(step, "train.spectral", std::sqrt(std::max(0.0, symmetric_eigen(gram).values.maxCoeff())));
  if (finetuning_) {
    host.record(step, "train.anchor_distance", (W - anchor_).norm());
    host.record(step, "train.projection_rounds", rounds_count_ > 0 ? rounds_sum_ / static_cast<double>(rounds_count_) : 0.0);
  }
}

}  // namespace featurelab::representation_theory_pack
