// Chapter 6's components: domain generalization via nuclear-norm regularization (ERM-NU). The
// regularizers themselves (l2, l1, nuclear-norm) are std components, usable by any model and loss.
#include "ch6_distributions.hpp"
#include "ch6_iht_rank.hpp"
#include "ch6_models.hpp"
#include "ch6_probes.hpp"
#include "chapters.hpp"

namespace representation_theory {

void register_chapter6(featurelab::PackBuilder& pack) {
  pack.add<DgTheoryModel>("dg-theory-model");
  pack.add<DgToy2d>("dg-toy-2d");
  pack.add<FeatureWeights>("feature-weights");
  pack.add<LinearFeatures>("linear-features");
  pack.add<IhtRank>("iht-rank");
  pack.add<OodAccuracy>("ood-accuracy");
  pack.add<StableRank>("stable-rank");
  pack.add<FeatureSupport>("feature-support");
}

}  // namespace representation_theory
