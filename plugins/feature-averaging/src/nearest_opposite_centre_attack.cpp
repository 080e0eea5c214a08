// One candidate batch per centre of the other side; the lowest margin wins.
#include "nearest_opposite_centre_attack.hpp"

#include <limits>

namespace featurelab::feature_averaging_pack {

Schema NearestOppositeCentreAttack::schema() {
  Schema s;
  Readout::declare(s);
  return s;
}

NearestOppositeCentreAttack::NearestOppositeCentreAttack(const Params& params, Context& context)
    : readout_(Readout::from(params, context)) {
  const Clusters c = clusters_of(context.features, context.name);
  centres_ = c.centres;
  sides_ = c.sides;
}

void NearestOppositeCentreAttack::perturb(Model& model, const Batch& batch, double radius, MatRef X_adv, Rng&) {
  const Index n = batch.n, k = centres_.rows();
  const ConstMatMap X = batch.X();
  const ConstIVecMap y = batch.Y();
  Eigen::VectorXi own(n);
  const Mat scores = X * centres_.transpose();  // n×k
  for (Index i = 0; i < n; ++i) scores.row(i).maxCoeff(&own(i));
  X_adv = X;
  Vec best = Vec::Constant(n, std::numeric_limits<Scalar>::infinity());
  candidate_.resize(n, X.cols());
  out_.resize(n, model.outputs());
  dmargin_.resize(n, model.outputs());
  for (Index l = 0; l < k; ++l) {
    candidate_ = X;
    for (Index i = 0; i < n; ++i) {
      if (sides_(l) == readout_.side(y(i)) || l == own(i)) continue;
      const Vec step = centres_.row(l) - centres_.row(own(i));
      candidate_.row(i) += static_cast<Scalar>(radius) * step.transpose() / step.norm();
    }
    model.forward(candidate_, out_);
    const Vec m = readout_.margins(out_, y, dmargin_);
    for (Index i = 0; i < n; ++i) {
      if (sides_(l) == readout_.side(y(i)) || l == own(i)) continue;
      if (m(i) < best(i)) {
        best(i) = m(i);
        X_adv.row(i) = candidate_.row(i);
      }
    }
  }
}

}  // namespace featurelab::feature_averaging_pack
