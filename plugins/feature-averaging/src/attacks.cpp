// One direction per sample; the nearest-opposite attack evaluates one candidate batch per centre.
#include "attacks.hpp"

#include "cluster_geometry.hpp"

#include <featurelab/error.hpp>

namespace feature_averaging {

using namespace featurelab;

namespace {
Schema readout_schema() {
  Schema s;
  Readout::declare(s);
  return s;
}
}  // namespace

Schema FeatureAveragingDirection::schema() { return readout_schema(); }

FeatureAveragingDirection::FeatureAveragingDirection(const Params& params, Context& context)
    : readout_(Readout::from(params, context)) {
  const Clusters c = clusters_of(context.features, context.name);
  direction_ = (c.sides.cast<Scalar>().transpose() * c.centres).transpose();
  direction_ /= direction_.norm();
}

void FeatureAveragingDirection::perturb(Model&, const Batch& batch, double radius, MatRef X_adv, Rng&) {
  const ConstIVecMap y = batch.Y();
  X_adv = batch.X();
  for (Index i = 0; i < batch.n; ++i) {
    X_adv.row(i) -= readout_.side(y(i)) * static_cast<Scalar>(radius) * direction_.transpose();
  }
}

Schema NearestOppositeCentre::schema() { return readout_schema(); }

NearestOppositeCentre::NearestOppositeCentre(const Params& params, Context& context)
    : readout_(Readout::from(params, context)) {
  const Clusters c = clusters_of(context.features, context.name);
  centres_ = c.centres;
  sides_ = c.sides;
}

void NearestOppositeCentre::perturb(Model& model, const Batch& batch, double radius, MatRef X_adv, Rng&) {
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

}  // namespace feature_averaging
