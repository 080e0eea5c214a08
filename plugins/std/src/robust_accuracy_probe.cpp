// Robust accuracy: for each radius, a sample counts only if every attack leaves it right.
#include "robust_accuracy_probe.hpp"

#include <featurelab/error.hpp>

#include <fmt/format.h>

namespace featurelab::std_pack {

Schema RobustAccuracyProbe::schema() {
  Schema s;
  s.reals("radii", {0.1, 0.5, 1.0}, "perturbation radii").min(0).non_empty();
  s.choice("split", "test", {"train", "test"}, "which set to attack");
  s.integer("max_samples", 1000, "attack at most the first this many samples").min(1);
  Readout::declare(s);
  return s;
}

RobustAccuracyProbe::RobustAccuracyProbe(const Params& params, Context& context)
    : radii_(params.reals("radii")),
      split_(params.str("split")),
      max_samples_(params.integer("max_samples")),
      readout_(Readout::from(params, context)),
      rng_(context.rng) {}

void RobustAccuracyProbe::measure(const ProbeInput& in, Measurements& out) {
  if (in.attacks.empty()) throw Error("robust-accuracy needs at least one [[attack]] in the pipeline");
  const Dataset& data = split_ == "train" ? in.train : in.test;
  const Index n = std::min(max_samples_, data.size());
  if (n == 0) return;
  const Batch batch = Batch::rows(data, 0, n);
  Mat logits(n, in.model.outputs());
  in.model.forward(batch.X(), logits);
  const ConstIVecMap truth = batch.Y();
  out.scalar("clean", static_cast<double>(readout_.correct(logits, truth).count()) / double(n));
  for (double r : radii_) {
    Robust robust = Robust::Constant(n, true);
    for (const auto& attack : in.attacks) {
      if (!robust.any()) break;  // every sample already fell to an earlier attack at this radius
      attack_survivors(in.model, *attack.attack, batch, r, robust);
    }
    out.scalar(fmt::format("r={}", r), static_cast<double>(robust.count()) / double(n));
  }
}

// An attack on the samples still robust at this radius only: a sample that an earlier attack broke counts as
// broken whatever the later ones do, and the later ones (PGD: 2·steps passes) cost as much per sample. The
// samples' attacks are independent of each other, so the verdicts are those of an attack on every sample.
void RobustAccuracyProbe::attack_survivors(Model& model, Attack& attack, const Batch& batch, double radius, Robust& robust) {
  const Index n = batch.n;
  const Index left = robust.count();
  X_adv_.resize(left, batch.dim);
  logits_.resize(left, model.outputs());
  if (left == n) {
    attack.perturb(model, batch, radius, X_adv_, rng_);
    model.forward(X_adv_, logits_);
    robust = robust && readout_.correct(logits_, batch.Y());
    return;
  }
  // The survivors' rows, labels and targets (if any), in order.
  survivors_.resize(left, batch.dim);
  survivor_labels_.resize(left);
  survivor_targets_.resize(batch.has_targets() ? left : 0, batch.t_cols);
  for (Index i = 0, j = 0; i < n; ++i) {
    if (!robust(i)) continue;
    survivors_.row(j) = batch.X().row(i);
    survivor_labels_(j) = batch.Y()(i);
    if (batch.has_targets()) survivor_targets_.row(j) = batch.T().row(i);
    ++j;
  }
  Batch sub = batch;
  sub.x = survivors_.data();
  sub.y = survivor_labels_.data();
  sub.t = batch.has_targets() ? survivor_targets_.data() : nullptr;
  sub.n = left;
  sub.codes = nullptr;  // other rows: the batch's input codes (dataset.hpp) are not theirs
  sub.code_basis = nullptr;
  attack.perturb(model, sub, radius, X_adv_, rng_);
  model.forward(X_adv_, logits_);
  const auto held = readout_.correct(logits_, sub.Y());
  for (Index i = 0, j = 0; i < n; ++i) {
    if (robust(i)) robust(i) = held(j++);
  }
}

}  // namespace featurelab::std_pack
