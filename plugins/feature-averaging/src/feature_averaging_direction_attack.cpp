// One direction for every sample.
#include "feature_averaging_direction_attack.hpp"

namespace featurelab::feature_averaging_pack {

Schema FeatureAveragingDirectionAttack::schema() {
  Schema s;
  Readout::declare(s);
  return s;
}

FeatureAveragingDirectionAttack::FeatureAveragingDirectionAttack(const Params& params, Context& context)
    : readout_(Readout::from(params, context)) {
  const Clusters c = clusters_of(context.features, context.name);
  direction_ = (c.sides.cast<Scalar>().transpose() * c.centres).transpose();
  direction_ /= direction_.norm();
}

void FeatureAveragingDirectionAttack::perturb(Model&, const Batch& batch, double radius, MatRef X_adv, Rng&) {
  const ConstIVecMap y = batch.Y();
  X_adv = batch.X();
  for (Index i = 0; i < batch.n; ++i) {
    X_adv.row(i) -= readout_.side(y(i)) * static_cast<Scalar>(radius) * direction_.transpose();
  }
}

}  // namespace featurelab::feature_averaging_pack
