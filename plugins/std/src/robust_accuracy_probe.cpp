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
  Mat X_adv(n, batch.dim);
  for (double r : radii_) {
    Eigen::Array<bool, Eigen::Dynamic, 1> robust = Eigen::Array<bool, Eigen::Dynamic, 1>::Constant(n, true);
    for (const auto& attack : in.attacks) {
      attack.attack->perturb(in.model, batch, r, X_adv, rng_);
      in.model.forward(X_adv, logits);
      robust = robust && readout_.correct(logits, truth);
    }
    out.scalar(fmt::format("r={}", r), static_cast<double>(robust.count()) / double(n));
  }
}

}  // namespace featurelab::std_pack
