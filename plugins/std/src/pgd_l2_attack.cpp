// ℓ2 PGD on the margin, batched: one forward and one input-gradient pass per step for all samples.
#include "pgd_l2_attack.hpp"

#include <algorithm>

namespace featurelab::std_pack {

Schema PgdL2Attack::schema() {
  Schema s;
  s.integer("steps", 20, "gradient steps").min(1);
  s.real("step_size", 0.25, "step length as a fraction of the radius").above(0);
  s.boolean("random_start", false, "start from a uniformly random point of the ball");
  Readout::declare(s);
  return s;
}

PgdL2Attack::PgdL2Attack(const Params& params, Context& context)
    : steps_(params.integer("steps")),
      step_size_(params.real("step_size")),
      random_start_(params.boolean("random_start")),
      readout_(Readout::from(params, context)) {}

void PgdL2Attack::perturb(Model& model, const Batch& batch, double radius, MatRef X_adv, Rng& rng) {
  const Index n = batch.n, k = model.outputs();
  const ConstMatMap X0 = batch.X();
  X_ = X0;
  if (radius <= 0) {
    X_adv = X_;
    return;
  }
  if (random_start_) {
    Mat noise(n, batch.dim);
    rng.fill_normal(noise);
    for (Index i = 0; i < n; ++i) {
      const double scale = radius * std::pow(rng.uniform(), 1.0 / static_cast<double>(batch.dim));
      X_.row(i) += static_cast<Scalar>(scale) * noise.row(i) / std::max(noise.row(i).norm(), Scalar(1e-30));
    }
  }
  out_.resize(n, k);
  dmargin_.resize(n, k);
  grad_.resize(n, batch.dim);
  best_ = X_;
  Vec best_margin = Vec::Constant(n, std::numeric_limits<Scalar>::infinity());
  const auto alpha = static_cast<Scalar>(step_size_ * radius);
  const auto r = static_cast<Scalar>(radius);
  const ConstIVecMap y = batch.Y();
  for (Index s = 0; s <= steps_; ++s) {
    model.forward(X_, out_);
    const Vec m = readout_.margins(out_, y, dmargin_);
    for (Index i = 0; i < n; ++i) {
      if (m(i) < best_margin(i)) {
        best_margin(i) = m(i);
        best_.row(i) = X_.row(i);
      }
    }
    if (s == steps_) break;
    model.input_gradient(X_, dmargin_, grad_);
    // Row by row while the row is in L1 (one pass over the n×D arrays, not five): the normalised
    // step, then the projection back onto the ball of radius r around the clean sample.
    for (Index i = 0; i < n; ++i) {
      auto g = grad_.row(i);
      auto x = X_.row(i);
      const Scalar norm = std::max(g.norm(), Scalar(1e-30));
      x.array() -= alpha * (g.array() / norm);
      g = x - X0.row(i);  // reused as the perturbation
      const Scalar length = g.norm();
      if (length > r) x = X0.row(i) + g * (r / length);
    }
  }
  X_adv = best_;
}

}  // namespace featurelab::std_pack
