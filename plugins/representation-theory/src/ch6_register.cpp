// Chapter 6's components: domain generalization via nuclear-norm regularization (ERM-NU). The
// regularizers themselves (l2, l1, nuclear-norm) are std components, usable by any model and loss.
#include "ch6_distributions.hpp"
#include "ch6_iht_rank.hpp"
#include "ch6_models.hpp"
#include "ch6_probes.hpp"
#include "chapters.hpp"

namespace representation_theory {

void register_chapter6(featurelab::PackBuilder& pack) {
  pack.add<DgTheoryModel>("dg-theory-model", DgTheoryModel::kDoc, DgTheoryModel::schema());
  pack.add<DgToy2d>("dg-toy-2d", DgToy2d::kDoc, DgToy2d::schema());
  pack.add<FeatureWeights>("feature-weights", FeatureWeights::kDoc, FeatureWeights::schema());
  pack.add<LinearFeatures>("linear-features", LinearFeatures::kDoc, LinearFeatures::schema());
  pack.add<IhtRank>("iht-rank", IhtRank::kDoc, IhtRank::schema());
  pack.add<OodAccuracy>("ood-accuracy", OodAccuracy::kDoc, OodAccuracy::schema());
  pack.add<StableRank>("stable-rank", StableRank::kDoc, StableRank::schema());
  pack.add<FeatureSupport>("feature-support", FeatureSupport::kDoc, FeatureSupport::schema());
}

}  // namespace representation_theory
